package io.most.device;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Objects;

/**
 * A device that passes every operation to another one, for views that observe or change a few of
 * them: a subclass overrides those (a view that leaves closing to the device's owner, one that counts
 * or logs the operations of some threads) and inherits the rest.
 */
public abstract class ForwardingDevice implements BlockDevice {
    private final BlockDevice inner;

    /** Forwards to {@code inner}. */
    protected ForwardingDevice(BlockDevice inner) {
        this.inner = Objects.requireNonNull(inner, "inner");
    }

    /** The device operations go to. */
    public final BlockDevice inner() {
        return inner;
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public int blockSize() {
        return inner.blockSize();
    }

    @Override
    public long capacity() {
        return inner.capacity();
    }

    @Override
    public void read(long offset, MemorySegment destination) {
        inner.read(offset, destination);
    }

    @Override
    public void write(long offset, MemorySegment source) {
        inner.write(offset, source);
    }

    @Override
    public void transferAll(List<IoRequest> requests) {
        inner.transferAll(requests);
    }

    @Override
    public void discard(long offset, long length) {
        inner.discard(offset, length);
    }

    @Override
    public void force() {
        inner.force();
    }

    @Override
    public DeviceStats stats() {
        return inner.stats();
    }

    @Override
    public boolean isOpen() {
        return inner.isOpen();
    }

    @Override
    public void close() {
        inner.close();
    }

    @Override
    public MemorySegment allocate(Arena arena, long bytes) {
        return inner.allocate(arena, bytes);
    }
}
