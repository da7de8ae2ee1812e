package io.most.bench.hierarchy;

import io.most.device.AbstractBlockDevice;
import io.most.device.BlockDevice;
import io.most.device.DeviceProfile;
import io.most.device.EmulatedDevice;
import java.lang.foreign.MemorySegment;

/**
 * A device that passes I/O straight to its backing until {@link #emulate()}, and from then on takes
 * as long as its {@link DeviceProfile} says ({@link EmulatedDevice} over the same backing). A tiered
 * volume keeps its placement in its own metadata, so the bench cannot load the data set on the bare
 * backings and then wrap them, as it does for a single SSD: the volume must sit on the same two
 * devices throughout, and the untimed load must not wait out the emulated latency of every page.
 */
final class EmulationSwitch extends AbstractBlockDevice {
    private final BlockDevice backing;
    private final EmulatedDevice emulated;
    private volatile boolean emulating;

    /** A switch over {@code backing}, passing through; {@link #close()} closes the backing. */
    EmulationSwitch(BlockDevice backing, DeviceProfile profile) {
        super(profile.name(), backing.blockSize(), backing.capacity());
        this.backing = backing;
        this.emulated = new EmulatedDevice(profile.name(), new NonClosingDevice(backing), profile);
    }

    /** From now on every operation follows the profile. */
    void emulate() {
        emulating = true;
    }

    DeviceProfile profile() {
        return emulated.profile();
    }

    private BlockDevice target() {
        return emulating ? emulated : backing;
    }

    @Override
    protected void doRead(long offset, MemorySegment destination) {
        target().read(offset, destination);
    }

    @Override
    protected void doWrite(long offset, MemorySegment source) {
        target().write(offset, source);
    }

    /** A batch goes to the target whole, so the real or emulated device sees its queue depth. */
    @Override
    protected void doTransferAll(java.util.List<io.most.device.IoRequest> requests) {
        target().transferAll(requests);
    }

    /** Forwards to the target, so a discard reaches the backing device (the emulation charges nothing for it). */
    @Override
    protected void doDiscard(long offset, long length) {
        target().discard(offset, length);
    }

    @Override
    protected void doForce() {
        backing.force();
    }

    @Override
    protected void doClose() {
        emulated.close();
        backing.close();
    }
}
