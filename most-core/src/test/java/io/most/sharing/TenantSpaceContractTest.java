package io.most.sharing;

import io.most.device.BlockDevice;
import io.most.device.BlockDeviceContractTest;
import io.most.device.DeviceProfiles;
import io.most.device.DirectFileDevice;
import io.most.device.EmulatedPm;
import io.most.device.PmProfiles;
import java.nio.file.Path;

/**
 * The {@link BlockDeviceContractTest} suite on a tenant's space of a shared O_DIRECT file, behind
 * another tenant's space, so that an offset the space forgot to translate or to bound (a batch, a
 * discard) lands in the other tenant's bytes or outside the file and the suite's checksums see it; every
 * access also passes the tenant's throttle and is charged to it. Closing the space closes it alone: the
 * shared file stays open for its owner ({@link #release}).
 */
class TenantSpaceContractTest extends BlockDeviceContractTest {
    private BlockDevice shared;

    @Override
    protected BlockDevice open(Path dir) {
        shared = DirectFileDevice.open(dir.resolve("shared.dat"), 2 * CAPACITY + (4L << 20));
        SharedDevices set = new SharedDevices(new EmulatedPm(PmProfiles.get("none")), shared,
                DeviceProfiles.get("nvme-pcie4", 1));
        set.join("before").space("pages", CAPACITY);
        return set.join("tested").space("pages", CAPACITY);
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
