package io.most.device;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;

/**
 * The {@link BlockDeviceContractTest} suite on each {@link IoEngine} of {@link DirectFileDevice}, so
 * the io_uring engine and the pread fallback answer to the same contract. The io_uring runs need a
 * kernel that allows io_uring (this project's machines do: {@code kernel.io_uring_disabled} is 0);
 * elsewhere they fail with the ConfigurationException that says why.
 */
class IoUringDeviceContractTest extends BlockDeviceContractTest {
    @Override
    BlockDevice open(Path dir) {
        DirectFileDevice d = DirectFileDevice.open(dir.resolve("uring.dat"), CAPACITY,
                DirectFileDevice.Options.defaults().withEngine(IoEngine.IO_URING));
        assertEquals(IoEngine.IO_URING, d.engine());
        return d;
    }
}

/** The pread/pwrite fallback, forced by the option (as {@code -Dmost.io.engine=pread} would). */
class PreadDeviceContractTest extends BlockDeviceContractTest {
    @Override
    BlockDevice open(Path dir) {
        DirectFileDevice d = DirectFileDevice.open(dir.resolve("pread.dat"), CAPACITY,
                DirectFileDevice.Options.defaults().withEngine(IoEngine.PREAD));
        assertEquals(IoEngine.PREAD, d.engine());
        return d;
    }
}

/**
 * io_uring with rings of 4 entries and SQEs of one block: every batch of the suite is larger than
 * the ring (split and refilled) and every multi-block transfer completes in several pieces (the path
 * a short completion takes).
 */
class SmallRingDeviceContractTest extends BlockDeviceContractTest {
    @Override
    BlockDevice open(Path dir) {
        DirectFileDevice d = DirectFileDevice.open(dir.resolve("small-ring.dat"), CAPACITY,
                DirectFileDevice.Options.defaults().withEngine(IoEngine.IO_URING).withQueueDepth(4),
                NativeIO.get().orElseThrow().oDirect(), BLOCK);
        assertEquals(IoEngine.IO_URING, d.engine());
        return d;
    }
}
