package io.most.tier;

import io.most.device.BlockDevice;
import io.most.device.BlockDeviceContractTest;
import io.most.device.DirectFileDevice;
import io.most.device.IoEngine;
import java.nio.file.Path;

/** The block-device contract on a tiered volume over two O_DIRECT files, with its default policy. */
class TieredVolumeContractTest extends BlockDeviceContractTest {
    @Override
    protected BlockDevice open(Path dir) {
        return TieredVolume.open(DirectFileDevice.open(dir.resolve("perf.dat"), 16L * TierFixture.SEGMENT),
                DirectFileDevice.open(dir.resolve("cap.dat"), 48L * TierFixture.SEGMENT), TierFixture.small().build());
    }
}

/**
 * The contract on a tiered volume over io_uring devices whose rings hold 4 entries: the volume's batches
 * go down split per device, and each device splits its share again over its ring.
 */
class TieredVolumeOnSmallRingsContractTest extends BlockDeviceContractTest {
    @Override
    protected BlockDevice open(Path dir) {
        DirectFileDevice.Options rings = DirectFileDevice.Options.defaults().withEngine(IoEngine.IO_URING).withQueueDepth(4);
        return TieredVolume.open(DirectFileDevice.open(dir.resolve("perf.dat"), 16L * TierFixture.SEGMENT, rings),
                DirectFileDevice.open(dir.resolve("cap.dat"), 48L * TierFixture.SEGMENT, rings), TierFixture.small().build());
    }
}
