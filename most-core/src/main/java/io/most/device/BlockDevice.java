package io.most.device;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

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

    /** Makes every completed write durable. */
    void force();

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
