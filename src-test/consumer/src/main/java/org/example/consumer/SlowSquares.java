package org.example.consumer;

import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Service;

/** A computation worth caching, cached with {@code @Cacheable} in the MOST cache {@code squares}; counts its real runs. */
@Service
public class SlowSquares {
    private final AtomicInteger computed = new AtomicInteger();

    /** {@code n * n}, computed only on a cache miss. */
    @Cacheable("squares")
    public long square(int n) {
        computed.incrementAndGet();
        return (long) n * n;
    }

    /** How often {@link #square} really ran in this application context (hits do not run it). */
    public int computed() {
        return computed.get();
    }
}
