package io.most.device;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Argument checks and the one-request-at-a-time execution shared by every batch and queue implementation. */
final class Batches {
    private Batches() {
    }

    /**
     * Throws {@link IllegalArgumentException} naming the request's index unless every request is
     * aligned and within capacity: a batch is refused whole, before any of it runs.
     */
    static void checkAll(String device, int blockSize, long capacity, List<IoRequest> requests) {
        for (int i = 0; i < requests.size(); i++) {
            IoRequest r = requests.get(i);
            try {
                checkAccess(device, blockSize, capacity, r.op(), r.offset(), r.length());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("request " + i + " of a batch of " + requests.size()
                        + ": " + e.getMessage(), e);
            }
        }
    }

    /** Throws {@link IllegalArgumentException} unless the access is aligned and within capacity. */
    static void checkAccess(String device, int blockSize, long capacity, IoOp op, long offset, long length) {
        if (offset < 0 || offset % blockSize != 0) {
            throw new IllegalArgumentException(op.tag() + " offset " + offset + " on device '" + device
                    + "' is not a non-negative multiple of the block size " + blockSize);
        }
        if (length <= 0 || length % blockSize != 0) {
            throw new IllegalArgumentException(op.tag() + " length " + length + " on device '" + device
                    + "' is not a positive multiple of the block size " + blockSize);
        }
        if (offset > capacity - length) {
            throw new IllegalArgumentException(op.tag() + " of " + length + " bytes at offset " + offset
                    + " is beyond the capacity " + capacity + " of device '" + device + "'");
        }
    }

    /** Throws {@link IllegalArgumentException} unless {@code depth} is a depth an {@link IoQueue} may have. */
    static void checkDepth(String device, int depth) {
        if (depth < 1 || depth > IoQueue.MAX_DEPTH) {
            throw new IllegalArgumentException("queue depth " + depth + " for device '" + device + "' must be between 1"
                    + " and " + IoQueue.MAX_DEPTH + " (the largest io_uring ring): the requests one queue keeps in"
                    + " flight; open several queues for more");
        }
    }

    /**
     * The checks of {@link IoQueue#submit}, in the order a caller should hear of them: the queue is
     * closed, the request is bad, the device is closed, the queue is full.
     */
    static void checkSubmission(String device, int blockSize, long capacity, IoRequest request, boolean queueClosed,
                                boolean deviceClosed, int depth, int outstanding) {
        java.util.Objects.requireNonNull(request, "request");
        checkQueueOpen(device, queueClosed, false);
        checkAccess(device, blockSize, capacity, request.op(), request.offset(), request.length());
        checkQueueOpen(device, false, deviceClosed);
        checkRoom(device, depth, outstanding);
    }

    /** Throws {@link IllegalStateException} if a queue of {@code depth} already has that many requests outstanding. */
    private static void checkRoom(String device, int depth, int outstanding) {
        if (outstanding >= depth) {
            throw new IllegalStateException("the queue of device '" + device + "' already holds its depth of " + depth
                    + " outstanding requests: await a completion before submitting another");
        }
    }

    /** Throws {@link IllegalStateException} if a queue has nothing outstanding: an await would wait forever. */
    static void checkSomethingOutstanding(String device, int outstanding) {
        if (outstanding == 0) {
            throw new IllegalStateException("no request is outstanding on this queue of device '" + device
                    + "': submit one before awaiting its completion");
        }
    }

    /** Throws {@link IllegalStateException} for a call on a closed queue ({@code queueClosed}) or a submission to a closed device. */
    static void checkQueueOpen(String device, boolean queueClosed, boolean deviceClosed) {
        if (queueClosed) {
            throw new IllegalStateException("this queue of device '" + device + "' is closed: open another with"
                    + " BlockDevice.openQueue");
        }
        if (deviceClosed) {
            throw new IllegalStateException("device '" + device + "' is closed; its queue takes no more requests");
        }
    }

    /** What runs one request of a batch. */
    interface Transfer {
        void run(IoRequest request);
    }

    /**
     * Runs every request in order with {@code transfer}, going on after a failure so that all of them
     * have finished when this returns, then throws a {@link BatchIOException} naming the failed ones.
     */
    static void runEach(String device, List<IoRequest> requests, Transfer transfer) {
        Map<Integer, RuntimeException> failures = null;
        for (int i = 0; i < requests.size(); i++) {
            try {
                transfer.run(requests.get(i));
            } catch (RuntimeException e) {
                if (failures == null) {
                    failures = new HashMap<>();
                }
                failures.put(i, e);
            }
        }
        if (failures != null) {
            throw new BatchIOException(device, requests.size(), failures);
        }
    }
}
