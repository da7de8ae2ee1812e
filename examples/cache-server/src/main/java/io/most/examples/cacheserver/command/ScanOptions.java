package io.most.examples.cacheserver.command;

import io.most.examples.cacheserver.acl.Glob;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The arguments of {@code SCAN} and {@code HSCAN}: {@code cursor [MATCH pattern] [COUNT n] [TYPE type]}
 * ({@code TYPE} for SCAN only), with Redis's errors: {@code ERR invalid cursor}, {@code ERR syntax
 * error} for an unknown or incomplete option or a COUNT below 1.
 *
 * @param cursor  Redis's cursor, read as an unsigned 64-bit number ({@code strtoull}: "-1" is 2^64 - 1)
 * @param pattern the MATCH glob, null for every name
 * @param count   the COUNT hint (default 10)
 * @param type    the TYPE filter in lower case, null for every type
 */
record ScanOptions(long cursor, String pattern, int count, String type) {
    private static final int DEFAULT_COUNT = 10;

    /** Parses the cursor at {@code cursorIndex} and the options after it. */
    static ScanOptions parse(List<byte[]> a, int cursorIndex, boolean typeAllowed) {
        long cursor = parseCursor(a.get(cursorIndex));
        String pattern = null;
        String type = null;
        int count = DEFAULT_COUNT;
        for (int i = cursorIndex + 1; i < a.size(); i += 2) {
            if (i + 1 >= a.size()) {
                throw CommandException.syntax();
            }
            switch (CommandTable.lowerName(a.get(i))) {
                case "match" -> pattern = latin1(a.get(i + 1));
                case "count" -> {
                    long n = RedisNumbers.parseLong(a.get(i + 1));
                    if (n < 1) {
                        throw CommandException.syntax();
                    }
                    // a step visits up to ten times COUNT buckets: keep that product within range
                    count = (int) Math.min(n, Integer.MAX_VALUE / 10);
                }
                case "type" -> {
                    if (!typeAllowed) {
                        throw CommandException.syntax();
                    }
                    type = CommandTable.lowerName(a.get(i + 1));
                }
                default -> throw CommandException.syntax();
            }
        }
        return new ScanOptions(cursor, pattern, count, type);
    }

    /** Whether {@code name} matches the MATCH pattern (every name without one). */
    boolean matches(byte[] name) {
        return pattern == null || Glob.matches(pattern, latin1(name));
    }

    private static long parseCursor(byte[] text) {
        String t = new String(text, StandardCharsets.US_ASCII);
        try {
            return t.startsWith("-") ? -Long.parseUnsignedLong(t.substring(1)) : Long.parseUnsignedLong(t);
        } catch (NumberFormatException e) {
            throw new CommandException("ERR invalid cursor");
        }
    }

    /** Names as one char per byte: Redis's glob matches bytes. */
    static String latin1(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }
}
