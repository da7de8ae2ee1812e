package io.most.bench.hierarchy;

import io.most.bench.ScratchFiles;
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
 * One SSD under a page store. Emulated ({@code dram-pm-ssd}, {@code dram-ssd}, {@code pm-ssd}): the
 * data lives on a backing device (memory, or an O_DIRECT file for large data sets, see
 * {@link PageTiers}); the load writes to it directly and the measured store goes through an
 * {@link EmulatedDevice} over it. Real ({@code dram-file}, {@code dram-cached-file}: no profile): the
 * store uses the file as it is, O_DIRECT or through the OS page cache.
 */
final class SsdBlockTier implements PageBlockTier {
    private final DeviceProfile profile;
    private final BlockDevice backing;
    private final Path backingFile;
    private BlockDevice measured;
    private DeviceWindow window;

    private SsdBlockTier(DeviceProfile profile, BlockDevice backing, Path backingFile) {
        this.profile = profile;
        this.backing = backing;
        this.backingFile = backingFile;
    }

    /**
     * A fresh SSD of {@code capacity} bytes following {@code profile}, or a real file if it is null.
     *
     * @param directory  where the backing file goes unless {@code memoryBacked}
     * @param cachedFile whether the file goes through the OS page cache (else O_DIRECT)
     */
    static SsdBlockTier create(DeviceProfile profile, long capacity, boolean memoryBacked, Path directory,
                               boolean cachedFile) {
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
            return new SsdBlockTier(profile, cachedFile ? CachedFileDevice.open(file, capacity)
                    : DirectFileDevice.open(file, capacity), file);
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
        BlockDevice device = new NonClosingDevice(backing);
        measured = profile == null ? device : new EmulatedDevice(profile.name(), device, profile);
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
