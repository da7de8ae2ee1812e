package io.most.cache;

import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that moves only when told to, for expiry tests ({@link CacheConfig.Builder#clock}): a
 * lifetime ends when the test says, with no waiting and no timing. Thread-safe.
 */
public final class ManualClock implements InstantSource {
    private final AtomicLong millis = new AtomicLong(1_700_000_000_000L);

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis.get());
    }

    @Override
    public long millis() {
        return millis.get();
    }

    /** Moves the clock {@code ms} milliseconds on. */
    public void advance(long ms) {
        millis.addAndGet(ms);
    }
}
