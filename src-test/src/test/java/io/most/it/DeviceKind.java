package io.most.it;

import io.most.device.BlockDevice;
import io.most.device.DirectFileDevice;
import io.most.device.PmemDevice;
import java.nio.file.Path;

/** The file-backed device types that crash tests open in a child JVM and again in the test JVM. */
enum DeviceKind {
    /**
     * {@link DirectFileDevice}: O_DIRECT file, durable after fdatasync. Opened with growth allowed: the
     * reopen tests reopen a device at twice its size on purpose.
     */
    DIRECT {
        @Override
        BlockDevice open(Path path, long capacity) {
            DirectFileDevice device = DirectFileDevice.open(path, capacity,
                    DirectFileDevice.Options.defaults().withGrowth(true));
            if (!device.isDirect()) {
                device.close();
                throw new IllegalStateException(path + " is not open with O_DIRECT");
            }
            return device;
        }
    },
    /** {@link PmemDevice}: mapped file, durable after msync (no DAX here). */
    PMEM {
        @Override
        BlockDevice open(Path path, long capacity) {
            return PmemDevice.open(path, capacity);
        }
    };

    /** Opens (creating if needed) the device on {@code path} with 4 KiB blocks. */
    abstract BlockDevice open(Path path, long capacity);
}
