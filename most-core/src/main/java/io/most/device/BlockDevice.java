package io.most.device;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * A fixed-size, block-addressed storage device: the contract between MOST's layers (a plain SSD
 * file, a mapped PM file, an emulated device, a tiered volume are all block devices).
 *
 * <p><b>Alignment.</b> Every offset and every transfer length must be a positive multiple of
 * {@link #blockSize()} and lie within {@link #capacity()}; anything else throws
 * {@link IllegalArgumentException} naming the value and the alignment. Buffers may be any
 * {@link MemorySegment}; native segments aligned to the block size (see {@link #allocate}) take the
 * zero-copy path on O_DIRECT devices.
 *
 * <p><b>Concurrency.</b> Positional reads and writes are thread-safe and may run concurrently;
 * concurrent writes to the same block leave one of them. {@link #close()} waits for operations in
 * flight, and any operation after it throws {@link IllegalStateException}.
 *
 * <p><b>Durability.</b> A write is durable once a later {@link #force()} has returned.
 *
 * <p><b>Errors.</b> I/O failures throw {@link DeviceIOException} (or {@link DeviceFullException})
 * naming the device, operation and offset. A thread interrupt never closes a device.
 */
public interface BlockDevice extends AutoCloseable {

    /** A short name used in messages, metrics and reports. */
    String name();

    /** Alignment unit in bytes for offsets and lengths (a power of two, at least 512). */
    int blockSize();

    /** Usable bytes, a multiple of {@link #blockSize()}. */
    long capacity();

    /** Reads {@code destination.byteSize()} bytes starting at {@code offset} into {@code destination}. */
    void read(long offset, MemorySegment destination);

    /** Writes all of {@code source} at {@code offset}. Durable after the next {@link #force()}. */
    void write(long offset, MemorySegment source);

    /**
     * Runs every request of {@code requests} (reads and writes, any number, possibly overlapping in
     * time and in any order among themselves) and returns once all have finished. A device with a
     * queue keeps many of them in flight at once; a batch larger than its queue is split, never
     * dropped. Requests of one batch that touch the same blocks behave as concurrent operations do
     * (a write and a read of the same block: the read sees either version).
     *
     * <p>The batch is checked whole before any request runs: a misaligned or out-of-range request
     * throws {@link IllegalArgumentException} naming its index, and nothing is transferred. A request
     * that fails does not stop the others; once all have finished, {@link BatchIOException} names
     * each failed request. Writes are durable after the next {@link #force()}, as for {@link #write}.
     *
     * <p>The default runs the requests one after another with {@link #read} and {@link #write}.
     *
     * @throws IllegalArgumentException if a request is misaligned or beyond the capacity
     * @throws BatchIOException         if some requests failed (every other one completed)
     * @throws IllegalStateException    if the device is closed
     */
    default void transferAll(List<IoRequest> requests) {
        List<IoRequest> batch = List.copyOf(requests);
        Batches.checkAll(name(), blockSize(), capacity(), batch);
        if (!isOpen()) {
            throw new IllegalStateException("device '" + name() + "' is closed");
        }
        Batches.runEach(name(), batch, r -> {
            if (r.op() == IoOp.READ) {
                read(r.offset(), r.buffer());
            } else {
                write(r.offset(), r.buffer());
            }
        });
    }

    /**
     * Opens a queue through which one thread keeps up to {@code depth} reads and writes in flight and
     * learns of each as it finishes ({@link IoQueue}: submit, await a completion, submit the next): the
     * completion-per-request form of {@link #transferAll}. A {@link DirectFileDevice} on io_uring gives
     * the queue a ring of its own; the default queues the requests and runs them as
     * {@link #transferAll} batches on the next wait, completing them in submission order, which is
     * correct on every device and as parallel as its batches are.
     *
     * <p>Close the queue when done; closing the device finishes its open queues.
     *
     * @throws IllegalArgumentException if {@code depth} is outside 1..{@value IoQueue#MAX_DEPTH}
     * @throws IllegalStateException    if the device is closed
     */
    default IoQueue openQueue(int depth) {
        return new BatchingIoQueue(this, depth);
    }

    /** Makes every completed write durable. */
    void force();

    /**
     * Discards (trims) {@code length} bytes at {@code offset}: the range's contents are no longer
     * needed, so the device may free or unmap the space behind them (an SSD's deallocate, a file's
     * hole, a tiered volume's segment slots).
     *
     * <p><b>Contents.</b> After a discard the range's contents are unspecified until written: a read
     * of a discarded block returns either zeros or the bytes the block held before the discard, each
     * implementation says which, and never bytes written to any other block. A block written after
     * the discard reads back what was written. Racing operations on one block are not atomic against a
     * discard: a read racing a discard of the same block returns, byte by byte, the old byte or what the
     * discard leaves there; a write racing it leaves, byte by byte, the written byte or what the discard
     * leaves. No byte ever comes from another block.
     *
     * <p><b>Durability.</b> Like a write, a discard is certain to have taken effect after a crash only
     * once a later {@link #force()} has returned; before that the block reads, after a crash, as its
     * old bytes or as what the discard leaves. A write made durable after the discard is never undone
     * by it.
     *
     * <p>The default checks the arguments and keeps the contents (a device that cannot trim: every
     * discarded block reads as its old bytes).
     *
     * @throws IllegalArgumentException if the offset or length is not a multiple of the block size,
     *                                  the length is not positive, or the range exceeds the capacity
     * @throws DeviceIOException        if the device failed to discard
     * @throws IllegalStateException    if the device is closed
     */
    default void discard(long offset, long length) {
        Batches.checkAccess(name(), blockSize(), capacity(), IoOp.DISCARD, offset, length);
        if (!isOpen()) {
            throw new IllegalStateException("device '" + name() + "' is closed");
        }
    }

    /** Live operation statistics of this device. */
    DeviceStats stats();

    /** Whether {@link #close()} has not been called yet. */
    boolean isOpen();

    /** Waits for operations in flight, then releases the device. Idempotent. */
    @Override
    void close();

    /** Allocates a zeroed buffer of {@code bytes} aligned to this device's block size from {@code arena}. */
    default MemorySegment allocate(Arena arena, long bytes) {
        return arena.allocate(bytes, blockSize());
    }
}
