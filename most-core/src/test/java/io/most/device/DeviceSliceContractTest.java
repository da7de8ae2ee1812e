package io.most.device;

import java.nio.file.Path;

/**
 * The {@link BlockDeviceContractTest} suite on a {@link DeviceSlice} that starts one block into a
 * larger device and ends one block before its end, so that an offset the slice forgot to translate
 * or to bound (a batch, a discard) lands outside the slice and the suite's checksums see it.
 */
class DeviceSliceContractTest extends BlockDeviceContractTest {
    private BlockDevice shared;

    @Override
    protected BlockDevice open(Path dir) {
        shared = DirectFileDevice.open(dir.resolve("shared.dat"), CAPACITY + 2 * BLOCK);
        return new DeviceSlice(shared, BLOCK, CAPACITY, "slice");
    }

    @Override
    protected void release(BlockDevice device) {
        try {
            device.close();
        } finally {
            shared.close();
        }
    }
}
