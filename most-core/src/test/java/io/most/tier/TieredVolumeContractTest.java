package io.most.tier;

import io.most.device.BlockDevice;
import io.most.device.BlockDeviceContractTest;
import io.most.device.DirectFileDevice;
import java.nio.file.Path;

/** The block-device contract on a tiered volume over two O_DIRECT files, with its default policy. */
class TieredVolumeContractTest extends BlockDeviceContractTest {
    @Override
    protected BlockDevice open(Path dir) {
        return TieredVolume.open(DirectFileDevice.open(dir.resolve("perf.dat"), 16L * TierFixture.SEGMENT),
                DirectFileDevice.open(dir.resolve("cap.dat"), 48L * TierFixture.SEGMENT), TierFixture.small().build());
    }
}
