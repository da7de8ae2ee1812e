package io.most.bench.hierarchy;

import io.most.device.BlockDevice;
import io.most.device.DeviceStats;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A view of a device that ignores {@link #close()}: a page store takes ownership of its block device
 * and closes it, but the bench opens two stores in turn on the same device (one to load the data set,
 * one to measure) and closes the device itself afterwards.
 */
final class NonClosingDevice implements BlockDevice {
    private final BlockDevice device;

    NonClosingDevice(BlockDevice device) {
        this.device = device;
    }

    @Override
    public String name() {
        return device.name();
    }

    @Override
    public int blockSize() {
        return device.blockSize();
    }

    @Override
    public long capacity() {
        return device.capacity();
    }

    @Override
    public void read(long offset, MemorySegment destination) {
        device.read(offset, destination);
    }

    @Override
    public void write(long offset, MemorySegment source) {
        device.write(offset, source);
    }

    @Override
    public void force() {
        device.force();
    }

    @Override
    public DeviceStats stats() {
        return device.stats();
    }

    @Override
    public boolean isOpen() {
        return device.isOpen();
    }

    /** Does nothing: the owner of the wrapped device closes it. */
    @Override
    public void close() {
    }

    @Override
    public MemorySegment allocate(Arena arena, long bytes) {
        return device.allocate(arena, bytes);
    }

    @Override
    public String toString() {
        return "NonClosing[" + device + "]";
    }
}
