package io.most.bench;

import io.most.device.BlockDevice;
import io.most.device.DeviceProfile;
import io.most.device.DirectFileDevice;
import io.most.device.EmulatedDevice;
import io.most.device.MemoryDevice;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * One emulated SSD under a page store ({@code dram-pm-ssd}, {@code dram-ssd}, {@code pm-ssd}): the
 * data lives on a backing device (memory, or an O_DIRECT file for large data sets, see
 * {@link PageTiers}); the load writes to it directly and the measured store goes through an
 * {@link EmulatedDevice} over it.
 */
final class SsdBlockTier implements PageBlockTier {
    private final DeviceProfile profile;
    private final BlockDevice backing;
    private final Path backingFile;
    private EmulatedDevice measured;
    private DeviceWindow window;

    private SsdBlockTier(DeviceProfile profile, BlockDevice backing, Path backingFile) {
        this.profile = profile;
        this.backing = backing;
        this.backingFile = backingFile;
    }

    /**
     * A fresh SSD of {@code capacity} bytes following {@code profile}.
     *
     * @param directory where the backing file goes unless {@code memoryBacked}
     */
    static SsdBlockTier create(DeviceProfile profile, long capacity, boolean memoryBacked, Path directory) {
        if (memoryBacked) {
            return new SsdBlockTier(profile, new MemoryDevice(profile.name() + "-backing", 4096, capacity), null);
        }
        Path file;
        try {
            file = Files.createTempFile(directory, "most-bench-ssd-", ".dat");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the SSD file in " + directory + ": " + e.getMessage(), e);
        }
        ScratchFiles.remember(file);
        try {
            return new SsdBlockTier(profile, DirectFileDevice.open(file, capacity), file);
        } catch (RuntimeException e) {
            PageTarget.deleteQuietly(file, e);
            throw e;
        }
    }

    @Override
    public BlockDevice loadDevice() {
        return new NonClosingDevice(backing);
    }

    @Override
    public BlockDevice measuredDevice() {
        measured = new EmulatedDevice(profile.name(), new NonClosingDevice(backing), profile);
        window = new DeviceWindow(measured);
        return measured;
    }

    @Override
    public void beginMeasurement() {
        if (window != null) {
            window.restart();
        }
    }

    /** The SSD's own view of the window: {@code ssd_device_reads}, ... with the emulated latency. */
    @Override
    public void report(Map<String, Object> fields) {
        if (window != null) {
            window.report("ssd_device", fields);
        }
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        try {
            backing.close();
        } catch (RuntimeException e) {
            failure = e;
        }
        failure = PageTarget.deleteQuietly(backingFile, failure);
        if (failure != null) {
            throw failure;
        }
    }
}
