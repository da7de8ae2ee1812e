package io.most.tier;

/**
 * A token bucket of bytes for background copies (migration and cleaning): it fills at the configured
 * rate up to one burst (two optimizer intervals' worth, at least one segment), and a copy proceeds
 * only if the bucket holds its size. It never sleeps: the optimizer simply stops for this interval.
 */
final class RateLimiter {
    private final long bytesPerSecond;
    private final long burst;
    private double tokens;
    private long last = System.nanoTime();

    RateLimiter(long bytesPerSecond, long burst) {
        this.bytesPerSecond = bytesPerSecond;
        this.burst = burst;
        this.tokens = burst;
    }

    /** Takes {@code bytes} if available. */
    synchronized boolean tryAcquire(long bytes) {
        refill();
        if (tokens < bytes) {
            return false;
        }
        tokens -= bytes;
        return true;
    }

    /** Takes {@code bytes} even if that leaves a debt (copies that must finish once started). */
    synchronized void charge(long bytes) {
        refill();
        tokens -= bytes;
    }

    /** Returns bytes taken for a copy that did not happen. */
    synchronized void refund(long bytes) {
        tokens = Math.min(burst, tokens + bytes);
    }

    /** Bytes available now. */
    synchronized long available() {
        refill();
        return (long) Math.max(0, tokens);
    }

    private void refill() {
        long now = System.nanoTime();
        tokens = Math.min(burst, tokens + (now - last) * (double) bytesPerSecond / 1e9);
        last = now;
    }
}
