package io.most.cache;

import java.time.Duration;

/**
 * Expiry deadlines: milliseconds on the cache's clock ({@link CacheConfig#clock()}), with
 * {@link #NEVER} for an entry that does not expire. The one place that turns a lifetime into a
 * deadline and decides whether a deadline has passed, for the engines (which store the deadline
 * with each item) and the JCache layer (which keeps its own expiry times on the same clock).
 */
public final class Deadlines {
    /** The deadline of an entry that never expires. */
    public static final long NEVER = 0;

    private Deadlines() {
    }

    /**
     * {@code millis} after {@code now}, or {@link #NEVER} if that is past the range of a deadline
     * (a lifetime of centuries is no lifetime).
     */
    public static long after(long now, long millis) {
        long sum = now + millis;
        return ((now ^ sum) & (millis ^ sum)) < 0 || sum <= 0 ? NEVER : sum;
    }

    /**
     * The deadline of a lifetime {@code life} that starts at {@code now}: {@link #NEVER} for none
     * (null, {@link MostCache#FOREVER}, or longer than the clock's range).
     *
     * @throws IllegalArgumentException if {@code life} is under one millisecond
     */
    public static long of(Duration life, long now) {
        if (life == null || life.equals(MostCache.FOREVER)) {
            return NEVER;
        }
        long millis;
        try {
            millis = life.toMillis();
        } catch (ArithmeticException tooLong) {
            // millis past a long's range: no deadline (a negative one that long is refused below)
            millis = life.isNegative() ? -1 : Long.MAX_VALUE;
        }
        if (life.isNegative() || life.isZero() || millis == 0) {
            throw new IllegalArgumentException("a time to live must be at least one millisecond, got " + life);
        }
        if (millis == Long.MAX_VALUE) {
            return NEVER;
        }
        return after(now, millis);
    }

    /** Whether {@code deadline} has passed at {@code now} ({@link #NEVER} never does). */
    public static boolean passed(long deadline, long now) {
        return deadline != NEVER && now >= deadline;
    }
}
