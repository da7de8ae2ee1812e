package io.most.device;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The {@link IoQueue} of a device without a queue of its own: submitted requests wait here until
 * {@link #awaitCompletion} (or {@link #flush}) finds no finished one left and hands all of them to
 * {@link BlockDevice#transferAll} as one batch; their completions are then returned in submission
 * order. A caller that refills a slot per completion so drives the device with batches of about the
 * queue's depth, which is what a device gets from this form anyway: the batch is where its parallelism
 * lives (an {@link EmulatedDevice}'s channels, a tiered volume's two devices at once, io_uring under a
 * {@link FaultyDevice}).
 *
 * <p>A request's failure comes from the batch's {@link BatchIOException}; an exception for the batch as
 * a whole (the device closed meanwhile) is the failure of each of its requests, so every request still
 * completes exactly once.
 */
final class BatchingIoQueue implements IoQueue {
    private final BlockDevice device;
    private final int depth;
    private final List<IoRequest> pending = new ArrayList<>();
    private long[] pendingTags = new long[8];
    private final ArrayDeque<IoCompletion> finished = new ArrayDeque<>();
    private int outstanding;
    private boolean closed;

    /**
     * @throws IllegalArgumentException if {@code depth} is outside 1..{@value IoQueue#MAX_DEPTH}
     * @throws IllegalStateException    if the device is closed
     */
    BatchingIoQueue(BlockDevice device, int depth) {
        Batches.checkDepth(device.name(), depth);
        if (!device.isOpen()) {
            throw new IllegalStateException("device '" + device.name() + "' is closed");
        }
        this.device = device;
        this.depth = depth;
    }

    @Override
    public int depth() {
        return depth;
    }

    @Override
    public synchronized int outstanding() {
        return outstanding;
    }

    @Override
    public synchronized void submit(IoRequest request, long tag) {
        Batches.checkSubmission(device.name(), device.blockSize(), device.capacity(), request, closed,
                !device.isOpen(), depth, outstanding);
        if (pending.size() == pendingTags.length) {
            pendingTags = Arrays.copyOf(pendingTags, Math.min(depth, 2 * pendingTags.length));
        }
        pendingTags[pending.size()] = tag;
        pending.add(request);
        outstanding++;
    }

    @Override
    public synchronized void flush() {
        ensureOpen();
        runPending();
    }

    @Override
    public synchronized IoCompletion awaitCompletion() {
        ensureOpen();
        Batches.checkSomethingOutstanding(device.name(), outstanding);
        if (finished.isEmpty()) {
            runPending();
        }
        outstanding--;
        return finished.poll();
    }

    /** Runs the pending requests as one batch and queues their completions in submission order. */
    private void runPending() {
        if (pending.isEmpty()) {
            return;
        }
        Map<Integer, RuntimeException> failures = Map.of();
        RuntimeException wholeBatch = null;
        try {
            device.transferAll(pending);
        } catch (BatchIOException e) {
            failures = e.failures();
        } catch (RuntimeException e) {
            wholeBatch = e;
        }
        for (int i = 0; i < pending.size(); i++) {
            finished.add(new IoCompletion(pending.get(i), pendingTags[i],
                    wholeBatch != null ? wholeBatch : failures.get(i)));
        }
        pending.clear();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            runPending();
        } finally {
            finished.clear();
            outstanding = 0;
        }
    }

    private void ensureOpen() {
        Batches.checkQueueOpen(device.name(), closed, false);
    }
}
