package io.most.tier;

import io.most.device.BatchIOException;
import io.most.device.BlockDevice;
import io.most.device.IoRequest;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;

/**
 * Runs one batch on each of a volume's two devices with both in flight together: one on the calling
 * thread, the other on a helper thread, since {@link BlockDevice#transferAll} returns only once its
 * batch has finished and the block-device contract has no other asynchronous form. A batch for one
 * device only runs on the caller alone.
 *
 * <p>The helper takes the capacity device's batch, or the performance device's if only that one's
 * buffers may be used from another thread: a buffer of a confined arena belongs to the caller's thread
 * alone (a device that copies through it on another thread would fail), and the caller's buffers are
 * its own choice. If both batches hold such buffers they run one after the other on the caller.
 *
 * <p>Helpers come from a cached pool (idle ones end after a minute), so a steady stream of batches
 * reuses them and creates no thread per batch. A helper runs only the device call: everything that
 * touches the volume's state stays on the caller. The mark of a level-above migration
 * ({@link LevelAboveMigration}) goes with the capacity batch to its helper, so a volume below still
 * leaves those copies out of its heat and latency.
 *
 * <p>The caller waits for its helper even when interrupted (the interrupt status is kept): the
 * requests' buffers and the caller's locks must outlive the I/O. Thread-safe.
 */
final class PairedBatches {
    private static final Result NOTHING = new Result(new RuntimeException[0], 0);
    /** Never started: a thread other than any caller, to ask a buffer whether another thread may use it. */
    private static final Thread ANOTHER_THREAD = Thread.ofPlatform().unstarted(() -> { });

    /** Per request of one device's batch its failure (null where it succeeded), and the batch's duration. */
    record Result(RuntimeException[] failures, long nanos) {
        boolean failed(int index) {
            return failures[index] != null;
        }
    }

    private final BlockDevice[] devices;
    private final ExecutorService helpers;

    /** Batches on {@code devices} (performance, capacity); helper threads are named after {@code volume}. */
    PairedBatches(String volume, BlockDevice[] devices) {
        this.devices = devices;
        this.helpers = Executors.newCachedThreadPool(
                Thread.ofPlatform().daemon().name("most-tier-batch[" + volume + "]-", 0).factory());
    }

    /**
     * Runs {@code performance} on the performance device and {@code capacity} on the capacity device,
     * at once, and returns once both have finished: the results by device (performance first). A
     * device call that fails as a whole (not with a {@link BatchIOException}) fails each of its requests.
     */
    Result[] run(List<IoRequest> performance, List<IoRequest> capacity) {
        return run(performance, capacity, LevelAboveMigration.active());
    }

    /** {@link #run} of a migration's copy: a volume below takes it for migration, not for demand. */
    Result[] runAsMigration(List<IoRequest> performance, List<IoRequest> capacity) {
        return run(performance, capacity, true);
    }

    private Result[] run(List<IoRequest> performance, List<IoRequest> capacity, boolean migration) {
        if (performance.isEmpty() || capacity.isEmpty()) {
            return new Result[] {transfer(0, performance, migration), transfer(1, capacity, migration)};
        }
        int away = sharable(capacity) ? 1 : sharable(performance) ? 0 : -1;
        if (away < 0) {
            return new Result[] {transfer(0, performance, migration), transfer(1, capacity, migration)};
        }
        List<IoRequest> there = away == 1 ? capacity : performance;
        FutureTask<Result> other = new FutureTask<>(() -> transfer(away, there, migration));
        helpers.execute(other);
        Result here;
        try {
            here = transfer(1 - away, away == 1 ? performance : capacity, migration);
        } finally {
            awaitUninterruptibly(other); // never leave while the other device still uses the buffers
        }
        Result helped = awaitUninterruptibly(other);
        return away == 1 ? new Result[] {here, helped} : new Result[] {helped, here};
    }

    /** Whether every buffer of {@code requests} may be used by a thread other than the caller. */
    private static boolean sharable(List<IoRequest> requests) {
        for (IoRequest r : requests) {
            if (!r.buffer().isAccessibleBy(ANOTHER_THREAD)) {
                return false;
            }
        }
        return true;
    }

    /** Stops the helper threads once they are idle; called when the volume closes (no batch runs then). */
    void shutdown() {
        helpers.shutdown();
    }

    private Result transfer(int device, List<IoRequest> requests, boolean migration) {
        if (requests.isEmpty()) {
            return NOTHING;
        }
        RuntimeException[] failures = new RuntimeException[requests.size()];
        long start = System.nanoTime();
        try {
            if (migration) {
                LevelAboveMigration.transferAll(devices[device], requests);
            } else {
                devices[device].transferAll(requests);
            }
        } catch (BatchIOException e) {
            e.failures().forEach((i, f) -> failures[i] = f);
        } catch (RuntimeException e) {
            Arrays.fill(failures, e); // refused whole (closed device): no request of it ran
        }
        return new Result(failures, System.nanoTime() - start);
    }

    private static Result awaitUninterruptibly(FutureTask<Result> task) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return task.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof Error error) {
                        throw error;
                    }
                    throw new IllegalStateException("a device batch failed unexpectedly", e.getCause());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
