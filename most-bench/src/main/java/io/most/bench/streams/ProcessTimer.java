package io.most.bench.streams;

import io.most.bench.driver.Latencies;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The processor-side timer of the Streams application: {@link #start} when a record leaves the source
 * (a {@code peek} right after it), {@link #end} when its updated aggregate reaches the sink's side of the
 * store (a {@code peek} after {@code toStream()}). With the record cache off and no repartition, both
 * run on the same stream thread for the same record, so the difference is that record's process
 * latency: the store's get and put with the state's serdes and the changelog send (buffered). The
 * input's deserialisation comes before the first mark, the output's send after the second; consumer
 * polls and commits happen between records. They are in the throughput, not in the latency.
 *
 * <p>Each stream thread records into its own {@link Latencies} (guarded by its own lock, uncontended,
 * so that a snapshot can merge them while the threads go on with the tail).
 */
final class ProcessTimer {
    /** Told once each, on the stream thread that crossed it: the first measured record, the last one. */
    interface Events {
        void measuredStarted();

        void measuredDone();
    }

    private static final class Mark {
        long start;
        byte phase;
        final Latencies latencies = new Latencies();
    }

    private final long loadRecords;
    private final long measuredRecords;
    private final Events events;
    private final List<Mark> marks = new CopyOnWriteArrayList<>();
    private final ThreadLocal<Mark> mark = new ThreadLocal<>();
    private final AtomicLong loaded = new AtomicLong();
    private final AtomicLong measured = new AtomicLong();
    private final AtomicLong tail = new AtomicLong();
    private final AtomicLong firstRecordMillis = new AtomicLong();
    private final AtomicLong loadStartNanos = new AtomicLong();
    private volatile long loadEndNanos;
    private final AtomicLong windowStartNanos = new AtomicLong();
    private volatile long windowEndNanos;
    private final CountDownLatch first = new CountDownLatch(1);
    private final CountDownLatch done = new CountDownLatch(1);

    /**
     * @param loadRecords     records of the load phase (every key once)
     * @param measuredRecords records of the measured window
     * @param events          told of the window's bounds, on the stream thread that crossed them
     */
    ProcessTimer(long loadRecords, long measuredRecords, Events events) {
        this.loadRecords = loadRecords;
        this.measuredRecords = measuredRecords;
        this.events = events;
    }

    /** This stream thread's mark, registered on its first record. */
    private Mark mark() {
        Mark m = mark.get();
        if (m == null) {
            m = new Mark();
            marks.add(m);
            mark.set(m);
        }
        return m;
    }

    /** A record of {@code phase} leaves the source. */
    void start(byte phase) {
        Mark m = mark();
        m.phase = phase;
        m.start = System.nanoTime();
    }

    /** The record {@link #start} saw has updated the store. */
    void end() {
        long now = System.nanoTime();
        Mark m = mark();
        if (firstRecordMillis.get() == 0 && firstRecordMillis.compareAndSet(0, System.currentTimeMillis())) {
            first.countDown();
        }
        switch (m.phase) {
            case InputRecords.LOAD -> {
                loadStartNanos.compareAndSet(0, m.start);
                if (loaded.incrementAndGet() == loadRecords) {
                    loadEndNanos = now;
                }
            }
            case InputRecords.MEASURED -> {
                if (windowStartNanos.get() == 0 && windowStartNanos.compareAndSet(0, m.start)) {
                    events.measuredStarted();
                }
                synchronized (m.latencies) {
                    m.latencies.record(now - m.start);
                }
                if (measured.incrementAndGet() == measuredRecords) {
                    windowEndNanos = now;
                    events.measuredDone();
                    done.countDown();
                }
            }
            default -> tail.incrementAndGet();
        }
    }

    /** Waits up to {@code millis} for the last measured record; false on time-out. */
    boolean awaitMeasured(long millis) throws InterruptedException {
        return done.await(millis, TimeUnit.MILLISECONDS);
    }

    /** Waits up to {@code millis} for the first record processed; false on time-out. */
    boolean awaitFirst(long millis) throws InterruptedException {
        return first.await(millis, TimeUnit.MILLISECONDS);
    }

    /** Wall-clock time of the first record processed, 0 before it. */
    long firstRecordMillis() {
        return firstRecordMillis.get();
    }

    /** The measured latencies of every thread so far, merged. */
    Latencies latencies() {
        Latencies all = new Latencies();
        for (Mark m : marks) {
            synchronized (m.latencies) {
                all.add(m.latencies);
            }
        }
        return all;
    }

    /** Measured records processed so far (more than the window's if a record was processed twice). */
    long measuredCount() {
        return measured.get();
    }

    long loadedCount() {
        return loaded.get();
    }

    long tailCount() {
        return tail.get();
    }

    /** From the first measured record's start to the last one's end, in nanoseconds; 0 before the end. */
    long windowNanos() {
        long end = windowEndNanos;
        return end == 0 ? 0 : end - windowStartNanos.get();
    }

    /** From the first load record's start to the last one's end, in nanoseconds; 0 before the end. */
    long loadNanos() {
        long end = loadEndNanos;
        return end == 0 ? 0 : end - loadStartNanos.get();
    }
}
