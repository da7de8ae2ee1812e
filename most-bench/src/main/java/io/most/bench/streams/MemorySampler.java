package io.most.bench.streams;

import java.util.OptionalLong;

/**
 * Samples this process's resident memory ({@link ProcSelf#rssBytes}) every {@value #PERIOD_MILLIS} ms
 * on a daemon thread: the largest over the whole run, and the largest and mean within the measured
 * window (between {@link #windowStarted} and {@link #windowEnded}).
 */
final class MemorySampler implements AutoCloseable {
    static final long PERIOD_MILLIS = 100;

    private final Thread thread;
    private long max;
    private long windowMax;
    private long windowSum;
    private long windowSamples;
    private boolean inWindow;

    private MemorySampler() {
        thread = Thread.ofPlatform().daemon().name("most-bench-rss").unstarted(this::loop);
    }

    /** A sampler that has started sampling. */
    static MemorySampler start() {
        MemorySampler sampler = new MemorySampler();
        sampler.thread.start();
        return sampler;
    }

    private void loop() {
        while (!Thread.currentThread().isInterrupted()) {
            sample();
            try {
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Takes one sample now (the loop's, and one at each window bound so that short windows have some). */
    synchronized void sample() {
        OptionalLong rss = ProcSelf.rssBytes();
        if (rss.isEmpty()) {
            return;
        }
        long v = rss.getAsLong();
        max = Math.max(max, v);
        if (inWindow) {
            windowMax = Math.max(windowMax, v);
            windowSum += v;
            windowSamples++;
        }
    }

    synchronized void windowStarted() {
        inWindow = true;
        sample();
    }

    synchronized void windowEnded() {
        sample();
        inWindow = false;
    }

    /** The largest resident size seen, 0 if none could be read. */
    synchronized long max() {
        return max;
    }

    synchronized long windowMax() {
        return windowMax;
    }

    /** The mean resident size within the window, 0 without samples. */
    synchronized long windowMean() {
        return windowSamples == 0 ? 0 : windowSum / windowSamples;
    }

    @Override
    public void close() {
        thread.interrupt();
    }
}
