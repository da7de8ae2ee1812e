package io.most.device;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Argument checks and the one-request-at-a-time execution shared by every batch implementation. */
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
