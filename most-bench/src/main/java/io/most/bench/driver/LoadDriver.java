package io.most.bench.driver;

import io.most.bench.BenchException;
import io.most.bench.workload.Workload;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs a {@link Workload.Session} with the threads and timing of a {@link LoadShape} and measures
 * latency with one {@link Latencies} per thread, merged at the end.
 *
 * <p><b>Closed loop:</b> each thread issues its next operation when the previous one completes;
 * latency is the operation's own time (for a client that keeps several in flight, from the submission
 * of the one that completed: {@link Workload.Client#startOfCompleted()}).
 *
 * <p><b>Open loop:</b> thread {@code i} of {@code n} issues operations on a fixed schedule at
 * {@code rate / n}, staggered against the other threads. Latency is measured from the intended start,
 * so an operation delayed by a slow predecessor counts its wait (no coordinated omission). Threads
 * wait by parking, never by spinning (two cores): a park returns tens of microseconds late, so each
 * thread learns how late and parks that much short; an operation issued early is measured from its
 * actual start, so waking early never flatters latency.
 *
 * <p>Operations that start during warm-up are not measured. After warm-up the coordinator calls
 * {@link Workload.Session#beginMeasurement()} and then shows progress until the threads finish.
 */
public final class LoadDriver {
    /** A thread that fails this many operations in a row gives up: the device is not going to work. */
    private static final int MAX_CONSECUTIVE_ERRORS = 1000;
    private static final long PROGRESS_INTERVAL_NANOS = 500_000_000L;

    private final LoadShape shape;
    private final Progress progress;

    public LoadDriver(LoadShape shape, Progress progress) {
        this.shape = shape;
        this.progress = progress;
    }

    /**
     * Runs {@code session} and returns what was measured.
     *
     * @param label names the run on the progress line
     * @throws BenchException if a thread could not start or every operation kept failing
     */
    public Measurement drive(Workload.Session session, String label) {
        int n = shape.threads();
        Timeline timeline = new Timeline();
        Worker[] workers = new Worker[n];
        Thread[] threads = new Thread[n];
        CountDownLatch ready = new CountDownLatch(n);
        CountDownLatch finished = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            workers[i] = new Worker(i, session, timeline, ready, finished);
            threads[i] = Thread.ofPlatform().daemon().name("bench-" + i).unstarted(workers[i]);
            threads[i].start();
        }
        awaitUninterruptibly(ready);
        for (Worker w : workers) {
            if (w.fatal != null) {
                timeline.abort = true;
            }
        }
        if (shape.warmupNanos() == 0 && !timeline.abort) {
            session.beginMeasurement();
        }
        long start = System.nanoTime();
        timeline.startAt = start;
        timeline.measureFrom = start + shape.warmupNanos();
        timeline.endAt = timeline.measureFrom + shape.durationNanos();
        timeline.go.countDown(); // publishes the timeline to the workers
        coordinate(session, label, workers, timeline, finished);
        progress.clear();
        for (Thread t : threads) {
            joinUninterruptibly(t);
        }
        return merge(workers, timeline);
    }

    /** Ends warm-up on time and refreshes the progress line until every worker is done. */
    private void coordinate(Workload.Session session, String label, Worker[] workers, Timeline timeline,
                            CountDownLatch finished) {
        boolean measuring = shape.warmupNanos() == 0;
        long lastTick = timeline.startAt;
        long lastCompleted = 0;
        long total = shape.warmupNanos() + shape.durationNanos();
        while (true) {
            long now = System.nanoTime();
            long wait = Math.min(PROGRESS_INTERVAL_NANOS, measuring ? Long.MAX_VALUE : timeline.measureFrom - now);
            if (awaitNanos(finished, Math.max(0, wait))) {
                return;
            }
            now = System.nanoTime();
            if (!measuring && now >= timeline.measureFrom) {
                session.beginMeasurement();
                measuring = true;
            }
            if (now - lastTick >= PROGRESS_INTERVAL_NANOS / 2) {
                long completed = 0;
                for (Worker w : workers) {
                    completed += w.completed;
                }
                double rate = (completed - lastCompleted) * 1e9 / (now - lastTick);
                lastTick = now;
                lastCompleted = completed;
                long elapsed = now - timeline.startAt;
                String phase = elapsed < shape.warmupNanos()
                        ? String.format(Locale.ROOT, "warm-up %.1f/%.1f s", elapsed / 1e9, shape.warmupNanos() / 1e9)
                        : String.format(Locale.ROOT, "%.1f/%.1f s", (elapsed - shape.warmupNanos()) / 1e9,
                                shape.durationNanos() / 1e9);
                progress.show(String.format(Locale.ROOT, "%s  %3.0f%%  %s  %,.0f ops/s", label,
                        Math.min(100, 100.0 * elapsed / total), phase, rate));
            }
        }
    }

    private Measurement merge(Worker[] workers, Timeline timeline) {
        Latencies latency = new Latencies();
        long ops = 0;
        long errors = 0;
        long lastDone = timeline.measureFrom;
        RuntimeException firstError = null;
        Throwable fatal = null;
        Measurement.Pacing pacing = Measurement.Pacing.NONE;
        for (Worker w : workers) {
            latency.add(w.latency);
            if (shape.openLoop()) {
                pacing = pacing.plus(new Measurement.Pacing(w.issuedInWindow, w.lateInWindow, w.inServiceNanos,
                        w.occupiedNanos, timeline.endAt - timeline.measureFrom));
            }
            ops += w.measuredOps;
            errors += w.measuredErrors;
            lastDone = Math.max(lastDone, w.lastDone);
            if (firstError == null) {
                firstError = w.firstError;
            }
            if (fatal == null) {
                fatal = w.fatal;
            }
        }
        if (fatal != null) {
            throw new BenchException("driver thread failed: " + fatal.getMessage(), fatal);
        }
        return new Measurement(ops, errors, lastDone - timeline.measureFrom, latency, Optional.ofNullable(firstError),
                pacing);
    }

    /** Start and end instants, written once by the coordinator before {@code go} opens. */
    private static final class Timeline {
        final CountDownLatch go = new CountDownLatch(1);
        long startAt;
        long measureFrom;
        long endAt;
        volatile boolean abort;
    }

    /** One driver thread: its client, histogram and counters. */
    private final class Worker implements Runnable {
        private final int index;
        private final Workload.Session session;
        private final Timeline timeline;
        private final CountDownLatch ready;
        private final CountDownLatch finished;
        final Latencies latency = new Latencies();
        /** All completed operations, warm-up included; read by the progress line. */
        volatile long completed;
        long measuredOps;
        long measuredErrors;
        long lastDone;
        RuntimeException firstError;
        volatile Throwable fatal;
        private int consecutiveErrors;
        /** Open loop: operations issued in the measured window, and of those issued late (see {@link Measurement.Pacing}). */
        long issuedInWindow;
        long lateInWindow;
        /** Open loop: summed issue-to-completion time of those operations, and its part inside the window. */
        long inServiceNanos;
        long occupiedNanos;
        /** How late a park returns on this thread, learned as a moving average (open loop). */
        private long parkOvershoot = 50_000;

        Worker(int index, Workload.Session session, Timeline timeline, CountDownLatch ready, CountDownLatch finished) {
            this.index = index;
            this.session = session;
            this.timeline = timeline;
            this.ready = ready;
            this.finished = finished;
        }

        @Override
        public void run() {
            try {
                Workload.Client client;
                try {
                    client = session.newClient(index);
                } catch (RuntimeException | Error e) {
                    fatal = e;
                    return;
                } finally {
                    ready.countDown();
                }
                try (client) {
                    awaitUninterruptibly(timeline.go);
                    if (!timeline.abort) {
                        if (shape.openLoop()) {
                            runOpenLoop(client);
                        } else {
                            runClosedLoop(client);
                        }
                    }
                }
            } catch (RuntimeException | Error e) {
                fatal = e;
                timeline.abort = true;
            } finally {
                finished.countDown();
            }
        }

        private void runClosedLoop(Workload.Client client) {
            long measureFrom = timeline.measureFrom;
            long endAt = timeline.endAt;
            while (!timeline.abort) {
                long start = System.nanoTime();
                if (start >= endAt) {
                    return;
                }
                boolean ok = execute(client);
                long done = System.nanoTime();
                long began = client.startOfCompleted();
                record(began == Workload.Client.STARTED_WITH_CALL ? start : began, done, ok, measureFrom);
            }
        }

        private void runOpenLoop(Workload.Client client) {
            long measureFrom = timeline.measureFrom;
            long endAt = timeline.endAt;
            double interval = shape.threads() * 1e9 / shape.rate().getAsDouble();
            // stagger threads evenly within one interval so the total arrival stream is smooth
            double first = timeline.startAt + interval * index / shape.threads();
            long total = endAt - timeline.startAt;
            double next = first;
            while (!timeline.abort) {
                long intended = (long) next;
                double factor = session.rateFactor(intended - timeline.startAt, total);
                next += factor == 1 ? interval : interval / Math.max(1e-3, factor);
                if (intended >= endAt) {
                    return;
                }
                parkUntilAbout(intended);
                long issued = System.nanoTime();
                if (issued >= endAt) {
                    return; // a backlog left at the end is not served: the run has a fixed length
                }
                boolean ok = execute(client);
                long done = System.nanoTime();
                record(Math.min(intended, issued), done, ok, measureFrom);
                pace(intended, issued, done, measureFrom, endAt);
            }
        }

        private boolean execute(Workload.Client client) {
            try {
                client.next();
                consecutiveErrors = 0;
                return true;
            } catch (RuntimeException e) {
                if (firstError == null) {
                    firstError = e;
                }
                if (++consecutiveErrors >= MAX_CONSECUTIVE_ERRORS) {
                    throw new BenchException(MAX_CONSECUTIVE_ERRORS + " operations in a row failed; last: "
                            + e.getMessage(), e);
                }
                return false;
            }
        }

        private void record(long start, long done, boolean ok, long measureFrom) {
            if (start >= measureFrom) {
                latency.record(done - start);
                measuredOps++;
                if (!ok) {
                    measuredErrors++;
                }
                lastDone = done;
            }
            completed++; // single writer; volatile only so the progress line sees it
        }

        /** Counts an open-loop operation issued in the measured window for {@link DriverLimit}. */
        private void pace(long intended, long issued, long done, long measureFrom, long endAt) {
            if (issued < measureFrom) {
                if (done > measureFrom) {
                    occupiedNanos += Math.min(done, endAt) - measureFrom; // busy into the window
                }
                return;
            }
            issuedInWindow++;
            if (issued - intended > DriverLimit.LATE_NANOS) {
                lateInWindow++;
            }
            inServiceNanos += done - issued;
            occupiedNanos += Math.min(done, endAt) - issued;
        }

        /** Parks until shortly before {@code deadline}, never spinning; may return up to one overshoot early. */
        private void parkUntilAbout(long deadline) {
            while (true) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= parkOvershoot) {
                    return;
                }
                long request = remaining - parkOvershoot;
                long before = System.nanoTime();
                LockSupport.parkNanos(request);
                long late = System.nanoTime() - before - request;
                parkOvershoot += (Math.max(0, late) - parkOvershoot) >> 3;
            }
        }
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits up to {@code nanos} for {@code latch}; true once it is open. */
    private static boolean awaitNanos(CountDownLatch latch, long nanos) {
        try {
            return latch.await(nanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return latch.getCount() == 0;
        }
    }

    private static void joinUninterruptibly(Thread t) {
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
