package io.most.bench.hierarchy;

import io.most.device.BlockDevice;
import io.most.device.BlockDeviceContractTest;
import io.most.device.DeviceProfiles;
import io.most.device.DirectFileDevice;
import io.most.device.MemoryDevice;
import java.nio.file.Path;

/** The block-device contract on the bench's own devices (see the subclasses below). */
class CachedFileDeviceContractTest extends BlockDeviceContractTest {
    @Override
    protected BlockDevice open(Path dir) {
        return CachedFileDevice.open(dir.resolve("cached.dat"), CAPACITY);
    }
}

/** An emulation switch before {@link EmulationSwitch#emulate()}: straight to its backing. */
class EmulationSwitchPassingContractTest extends BlockDeviceContractTest {
    @Override
    protected BlockDevice open(Path dir) {
        return new EmulationSwitch(DirectFileDevice.open(dir.resolve("switch.dat"), CAPACITY), DeviceProfiles.get("pmem", 1));
    }
}

/** An emulation switch after {@link EmulationSwitch#emulate()}: every operation follows the profile. */
class EmulationSwitchEmulatingContractTest extends BlockDeviceContractTest {
    @Override
    protected BlockDevice open(Path dir) {
        // the pmem profile at scale 1: microsecond service times keep the suite fast
        EmulationSwitch device = new EmulationSwitch(new MemoryDevice(CAPACITY), DeviceProfiles.get("pmem", 1));
        device.emulate();
        return device;
    }
}

/** A view whose close leaves the device to its owner: it stays open, and the owner closes it. */
class NonClosingDeviceContractTest extends BlockDeviceContractTest {
    @Override
    protected BlockDevice open(Path dir) {
        return new NonClosingDevice(DirectFileDevice.open(dir.resolve("owned.dat"), CAPACITY));
    }

    @Override
    protected boolean closeCloses() {
        return false;
    }

    @Override
    protected void release(BlockDevice device) {
        ((NonClosingDevice) device).inner().close();
    }
}
