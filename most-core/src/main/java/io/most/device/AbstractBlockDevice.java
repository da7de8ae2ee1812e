package io.most.device;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * The shared part of every {@link BlockDevice}: argument checks, statistics, and a close that
 * waits for operations in flight. Subclasses implement the {@code do*} methods and may assume
 * their arguments are aligned and in range.
 */
public abstract class AbstractBlockDevice implements BlockDevice {
    private final String name;
    private final int blockSize;
    private final long capacity;
    private final DeviceStats stats = new DeviceStats();
    private volatile boolean closed;

    /**
     * @param name      device name for messages and metrics
     * @param blockSize alignment unit, a power of two of at least 512
     * @param capacity  usable bytes, a positive multiple of {@code blockSize}
     */
    protected AbstractBlockDevice(String name, int blockSize, long capacity) {
        this.name = name;
        this.blockSize = checkBlockSize(blockSize, name);
        if (capacity <= 0 || capacity % blockSize != 0) {
            throw new IllegalArgumentException("capacity " + capacity + " of device '" + name
                    + "' must be a positive multiple of the block size " + blockSize);
        }
        this.capacity = capacity;
    }

    /** Checks that {@code blockSize} is a power of two of at least 512 and returns it. */
    static int checkBlockSize(int blockSize, String device) {
        if (blockSize < 512 || Integer.bitCount(blockSize) != 1) {
            throw new IllegalArgumentException("block size " + blockSize + " of device '" + device
                    + "' must be a power of two of at least 512");
        }
        return blockSize;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final int blockSize() {
        return blockSize;
    }

    @Override
    public final long capacity() {
        return capacity;
    }

    @Override
    public final DeviceStats stats() {
        return stats;
    }

    @Override
    public final boolean isOpen() {
        return !closed;
    }

    @Override
    public final void read(long offset, MemorySegment destination) {
        long length = destination.byteSize();
        checkAccess(IoOp.READ, offset, length);
        long start = enter();
        boolean failed = true;
        try {
            doRead(offset, destination);
            failed = false;
        } finally {
            stats.end(IoOp.READ, length, start, failed);
        }
    }

    @Override
    public final void write(long offset, MemorySegment source) {
        long length = source.byteSize();
        checkAccess(IoOp.WRITE, offset, length);
        long start = enter();
        boolean failed = true;
        try {
            doWrite(offset, source);
            failed = false;
        } finally {
            stats.end(IoOp.WRITE, length, start, failed);
        }
    }

    /**
     * Checks the whole batch, counts each request in the statistics (with the batch's latency, the
     * time until all of it had finished) and runs it with {@link #doTransferAll}; {@link #close()}
     * waits for the batch like for any operation.
     */
    @Override
    public final void transferAll(List<IoRequest> requests) {
        List<IoRequest> batch = List.copyOf(requests);
        Batches.checkAll(name, blockSize, capacity, batch);
        if (batch.isEmpty()) {
            ensureOpen();
            return;
        }
        for (int i = 1; i < batch.size(); i++) {
            stats.begin();
        }
        long start;
        try {
            start = enter();
        } catch (IllegalStateException e) {
            for (int i = 1; i < batch.size(); i++) {
                stats.abandon();
            }
            throw e;
        }
        Map<Integer, RuntimeException> failures = Map.of();
        boolean allFailed = true;
        try {
            doTransferAll(batch);
            allFailed = false;
        } catch (BatchIOException e) {
            failures = e.failures();
            allFailed = false;
            throw e;
        } finally {
            for (int i = 0; i < batch.size(); i++) {
                IoRequest r = batch.get(i);
                stats.end(r.op(), r.length(), start, allFailed || failures.containsKey(i));
            }
        }
    }

    /**
     * Checks the range, counts the discard in the statistics (as {@link IoOp#DISCARD} of
     * {@code length} bytes) and runs {@link #doDiscard}; {@link #close()} waits for it.
     */
    @Override
    public final void discard(long offset, long length) {
        checkAccess(IoOp.DISCARD, offset, length);
        runGuarded(IoOp.DISCARD, length, () -> doDiscard(offset, length));
    }

    @Override
    public final void force() {
        runGuarded(IoOp.FORCE, 0, this::doForce);
    }

    @Override
    public final void close() {
        if (closed) {
            return;
        }
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            closeQueues();
            while (stats.inFlight() > 0) {
                LockSupport.parkNanos(100_000);
            }
            doClose();
        }
    }

    /**
     * Runs a device-specific operation (such as a PM persist) under the same guard as reads and
     * writes: it fails if the device is closed, {@link #close()} waits for it, and it is counted in
     * the statistics as {@code op} with {@code bytes}.
     */
    protected final void runGuarded(IoOp op, long bytes, Runnable action) {
        long start = enter();
        boolean failed = true;
        try {
            action.run();
            failed = false;
        } finally {
            stats.end(op, bytes, start, failed);
        }
    }

    /**
     * Finishes the device's own {@link IoQueue}s: called once by {@link #close()} after new operations
     * are refused and before it waits for those in flight, since a queue's requests count as in flight
     * until their completions are reaped, and the thread closing the device may be a queue's owner. The
     * default does nothing: the default queue ({@link BlockDevice#openQueue}) runs its requests as
     * batches that close waits for like any other.
     */
    protected void closeQueues() {
        // no queues of the device's own
    }

    /** Reads {@code destination.byteSize()} bytes at {@code offset}; arguments already checked. */
    protected abstract void doRead(long offset, MemorySegment destination);

    /** Writes {@code source} at {@code offset}; arguments already checked. */
    protected abstract void doWrite(long offset, MemorySegment source);

    /**
     * Runs a checked, non-empty batch; every request must have finished when this returns or throws.
     * The default runs them one by one with {@link #doRead} and {@link #doWrite}; devices with a
     * queue override it to keep many in flight.
     *
     * @throws BatchIOException naming the failed requests, after all have finished
     */
    protected void doTransferAll(List<IoRequest> requests) {
        Batches.runEach(name, requests, r -> {
            if (r.op() == IoOp.READ) {
                doRead(r.offset(), r.buffer());
            } else {
                doWrite(r.offset(), r.buffer());
            }
        });
    }

    /**
     * Discards {@code length} bytes at {@code offset}; arguments already checked. The default keeps
     * the contents (every discarded block reads as its old bytes), which the contract allows: a
     * device with nothing to free, or that cannot tell its medium, need not override it.
     */
    protected void doDiscard(long offset, long length) {
        // keeps the contents: allowed by BlockDevice#discard
    }

    /** Makes completed writes durable. */
    protected abstract void doForce();

    /** Releases resources; called once, after operations in flight have finished. */
    protected abstract void doClose();

    /** Throws {@link IllegalArgumentException} unless the access is aligned and within capacity. */
    protected final void checkAccess(IoOp op, long offset, long length) {
        Batches.checkAccess(name, blockSize, capacity, op, offset, length);
    }

    /** Describes an operation for error messages: "read of 4096 bytes at offset 8192 on device 'x'". */
    protected final String describe(IoOp op, long offset, long length) {
        return op.tag() + " of " + length + " bytes at offset " + offset + " on device '" + name + "'";
    }

    private long enter() {
        stats.begin();
        if (closed) {
            stats.abandon();
            throw closedError();
        }
        return System.nanoTime();
    }

    private void ensureOpen() {
        if (closed) {
            throw closedError();
        }
    }

    private IllegalStateException closedError() {
        return new IllegalStateException("device '" + name + "' is closed");
    }
}
