package io.most.cache.jcache;

import io.most.cache.Deadlines;
import java.time.InstantSource;
import javax.cache.expiry.Duration;
import javax.cache.expiry.ExpiryPolicy;

/**
 * A cache's {@link ExpiryPolicy} turned into expiry times on the store's clock (the clock of the
 * {@link io.most.cache.CacheConfig}, so that a test's clock drives JCache expiry as it drives the
 * engine's). An expiry time is {@link #ETERNAL}, 0 for "expired on arrival", or a time in
 * milliseconds; {@link #UNCHANGED} says the policy answered null (keep the entry's time).
 */
final class JCacheExpiry {
    /** The expiry time of an entry that never expires. */
    static final long ETERNAL = Long.MAX_VALUE;
    /** An expiry policy answered null: keep the entry's expiry time. */
    static final long UNCHANGED = -1;

    private final ExpiryPolicy policy;
    private final InstantSource clock;

    JCacheExpiry(ExpiryPolicy policy, InstantSource clock) {
        this.policy = policy;
        this.clock = clock;
    }

    /** The policy (closed with the cache if it is closeable). */
    ExpiryPolicy policy() {
        return policy;
    }

    /** The current time on the store's clock, in milliseconds. */
    long now() {
        return clock.millis();
    }

    /** The expiry time {@code d} gives at {@code now}: ETERNAL, 0 for zero (expire now) or a time. */
    static long timeOf(Duration d, long now) {
        if (d == null) {
            return UNCHANGED;
        }
        if (d.isEternal()) {
            return ETERNAL;
        }
        if (d.isZero()) {
            return 0;
        }
        long t = Deadlines.after(now, d.getTimeUnit().toMillis(d.getDurationAmount()));
        return t == Deadlines.NEVER ? ETERNAL : t;
    }

    /** The expiry time of a new entry (never {@link #UNCHANGED}). */
    long creationTime(long now) {
        try {
            long t = timeOf(policy.getExpiryForCreation(), now);
            return t == UNCHANGED ? ETERNAL : t;
        } catch (RuntimeException e) {
            return ETERNAL; // a failing policy does not fail the put (as JSR-107 implementations do)
        }
    }

    /** The expiry time of an updated entry, or {@link #UNCHANGED}. */
    long updateTime(long now) {
        try {
            return timeOf(policy.getExpiryForUpdate(), now);
        } catch (RuntimeException e) {
            return UNCHANGED;
        }
    }

    /** The expiry time of a read entry, or {@link #UNCHANGED}. */
    long accessTime(long now) {
        try {
            return timeOf(policy.getExpiryForAccess(), now);
        } catch (RuntimeException e) {
            return UNCHANGED;
        }
    }
}
