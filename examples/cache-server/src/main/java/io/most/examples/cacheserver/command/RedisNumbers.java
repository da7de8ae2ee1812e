package io.most.examples.cacheserver.command;

import java.nio.charset.StandardCharsets;

/**
 * Integers as Redis reads and writes them. Redis accepts a decimal only in its canonical form (no
 * sign but a leading minus, no leading zeros, no spaces, at most 20 characters, within a signed 64-bit
 * long), so that {@code INCR} on "007" or " 7" fails exactly as it does there.
 */
public final class RedisNumbers {

    /** The longest canonical decimal of a long ("-9223372036854775808"). */
    private static final int MAX_DIGITS = 20;

    private RedisNumbers() {
    }

    /**
     * The long {@code bytes} spell in canonical form (Redis's {@code string2ll}).
     *
     * @throws CommandException {@code ERR value is not an integer or out of range} otherwise
     */
    public static long parseLong(byte[] bytes) {
        Long value = tryParseLong(bytes);
        if (value == null) {
            throw CommandException.notAnInteger();
        }
        return value;
    }

    /** The long {@code bytes} spell in canonical form, or null if they do not spell one. */
    public static Long tryParseLong(byte[] bytes) {
        int len = bytes.length;
        if (len == 0 || len > MAX_DIGITS) {
            return null;
        }
        if (len == 1 && bytes[0] == '0') {
            return 0L;
        }
        int i = 0;
        boolean negative = false;
        if (bytes[0] == '-') {
            negative = true;
            i = 1;
            if (len == 1) {
                return null;
            }
        }
        if (bytes[i] < '1' || bytes[i] > '9') {
            return null;
        }
        // accumulate as a negative number: its range holds Long.MIN_VALUE, the positive one does not
        long acc = 0;
        for (; i < len; i++) {
            int d = bytes[i] - '0';
            if (d < 0 || d > 9) {
                return null;
            }
            if (acc < Long.MIN_VALUE / 10) {
                return null;
            }
            acc *= 10;
            if (acc < Long.MIN_VALUE + d) {
                return null;
            }
            acc -= d;
        }
        if (negative) {
            return acc;
        }
        return acc == Long.MIN_VALUE ? null : -acc;
    }

    /** The canonical decimal bytes of {@code value}. */
    public static byte[] format(long value) {
        return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
    }
}
