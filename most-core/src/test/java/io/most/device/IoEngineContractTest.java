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
    protected BlockDevice open(Path dir) {
        return IoEngines.open(dir, IoEngine.IO_URING, DirectFileDevice.Options.defaults(), IoUringEngine.DEFAULT_MAX_SQE_BYTES);
    }

    @Override
    protected boolean failReadsFrom(long offset) {
        return truncate(IoEngines.file(dir, IoEngine.IO_URING), offset);
    }
}

/** Opens the contract's device file on an engine and checks the engine is the one asked for. */
final class IoEngines {
    private IoEngines() {
    }

    /** The device file of {@code engine}'s contract device in {@code dir}. */
    static Path file(Path dir, IoEngine engine) {
        return dir.resolve(engine.name() + ".dat");
    }

    static DirectFileDevice open(Path dir, IoEngine engine, DirectFileDevice.Options options, int maxSqeBytes) {
        DirectFileDevice d = DirectFileDevice.open(file(dir, engine), BlockDeviceContractTest.CAPACITY,
                options.withEngine(engine), NativeIO.get().orElseThrow().oDirect(), maxSqeBytes);
        assertEquals(engine, d.engine());
        return d;
    }
}

/** The pread/pwrite fallback, forced by the option (as {@code -Dmost.io.engine=pread} would). */
class PreadDeviceContractTest extends BlockDeviceContractTest {
    @Override
    protected BlockDevice open(Path dir) {
        return IoEngines.open(dir, IoEngine.PREAD, DirectFileDevice.Options.defaults(), IoUringEngine.DEFAULT_MAX_SQE_BYTES);
    }

    @Override
    protected boolean failReadsFrom(long offset) {
        return truncate(IoEngines.file(dir, IoEngine.PREAD), offset);
    }
}

/**
 * io_uring with rings of 4 entries and SQEs of one block: every batch of the suite is larger than
 * the ring (split and refilled), every queue deeper than 4 holds its other requests in its backlog
 * until ring entries free up, and every multi-block transfer completes in several pieces (the path
 * a short completion takes).
 */
class SmallRingDeviceContractTest extends BlockDeviceContractTest {
    @Override
    protected BlockDevice open(Path dir) {
        return IoEngines.open(dir, IoEngine.IO_URING, DirectFileDevice.Options.defaults().withQueueDepth(4), BLOCK);
    }

    @Override
    protected boolean failReadsFrom(long offset) {
        return truncate(IoEngines.file(dir, IoEngine.IO_URING), offset);
    }
}
