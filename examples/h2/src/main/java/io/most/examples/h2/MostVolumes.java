package io.most.examples.h2;

import io.most.errors.ConfigurationException;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.device.BlockDevice;
import io.most.device.DeviceProfiles;
import io.most.device.DirectFileDevice;
import io.most.device.EmulatedDevice;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * Opens {@link MostVolume}s on the two kinds of MOST backing: a block device (an O_DIRECT file, an
 * emulated device profile over one, or any {@link BlockDevice} such as a
 * {@link io.most.tier.TieredVolume}) or a {@link PageStore} (Spitfire's DRAM / PM / SSD buffer
 * manager). Each method locks the volume's file against other processes first
 * ({@link VolumeLockedException}), then opens the backing, then the volume (creating it on a blank
 * backing if {@link VolumeOptions#create()}); on any failure it closes what it opened.
 */
public final class MostVolumes {
    private MostVolumes() {
    }

    /**
     * A volume on an O_DIRECT {@link DirectFileDevice} at {@code file}.
     *
     * @param capacity bytes of the device; 0 to use the size of an existing file
     * @throws ConfigurationException if the file is missing and creation is not allowed, or the capacity is unusable
     * @throws VolumeFormatException  if the file is not a MOST H2 volume of that capacity
     */
    public static MostVolume directFile(Path file, long capacity, VolumeOptions options) {
        return onFile(file, capacity, options, size -> DirectFileDevice.open(file, size));
    }

    /**
     * A volume on an {@link EmulatedDevice} with the named {@link DeviceProfiles profile} (e.g.
     * {@code "nvme-pcie3"}) over an O_DIRECT file: H2 pays that device's latency and bandwidth.
     */
    public static MostVolume emulated(Path file, long capacity, String profile, VolumeOptions options) {
        var deviceProfile = DeviceProfiles.get(profile);
        return onFile(file, capacity, options, size -> new EmulatedDevice(DirectFileDevice.open(file, size), deviceProfile));
    }

    /**
     * A volume on any block device, e.g. a {@link io.most.tier.TieredVolume}. The volume takes
     * ownership of {@code device} and closes it.
     *
     * @param lockFile an existing file that stands for the device (e.g. one of its files); it is locked
     *                 against other processes while the volume is open
     */
    public static MostVolume onDevice(BlockDevice device, Path lockFile, VolumeOptions options) {
        return open(lockFile, options, () -> new DeviceBlockSpace(device), device::close, device.name());
    }

    /**
     * A volume in a {@link PageStore} opened from {@code config} (its block device, DRAM, optional PM
     * tier and policy): H2's file pages get Spitfire's tiers. The store must be empty or hold a volume.
     *
     * @param lockFile an existing file of the store (e.g. its block device's file), locked against other processes
     */
    public static MostVolume onPageStore(PageStoreConfig config, Path lockFile, VolumeOptions options) {
        return open(lockFile, options, () -> new PageStoreBlockSpace(PageStore.open(config)),
                () -> config.blockDevice().close(), lockFile.getFileName().toString());
    }

    /**
     * A volume in a DRAM-only page store of {@code pageSize}-byte pages and {@code dramBytes} of DRAM
     * over an O_DIRECT file at {@code file} of {@code capacity} bytes (0: the existing file's size).
     */
    public static MostVolume pageStore(Path file, long capacity, int pageSize, long dramBytes, VolumeOptions options) {
        long size = deviceSize(file, capacity, options);
        touch(file);
        return onPageStore(file, options, () -> PageStoreConfig.builder().pageSize(pageSize).dramBytes(dramBytes)
                .blockDevice(DirectFileDevice.open(file, size)).build());
    }

    private static MostVolume onPageStore(Path file, VolumeOptions options, Supplier<PageStoreConfig> config) {
        ProcessLock lock = ProcessLock.acquire(file);
        try {
            PageStore store = PageStore.open(config.get());
            return construct(file.getFileName().toString(), new PageStoreBlockSpace(store), lock, options);
        } catch (RuntimeException e) {
            lock.close();
            throw e;
        }
    }

    private interface DeviceOpener {
        BlockDevice open(long capacity);
    }

    private static MostVolume onFile(Path file, long capacity, VolumeOptions options, DeviceOpener opener) {
        long size = deviceSize(file, capacity, options);
        touch(file);
        ProcessLock lock = ProcessLock.acquire(file);
        try {
            BlockDevice device = opener.open(size);
            return construct(file.getFileName().toString(), new DeviceBlockSpace(device), lock, options);
        } catch (RuntimeException e) {
            lock.close();
            throw e;
        }
    }

    private static MostVolume open(Path lockFile, VolumeOptions options, Supplier<BlockSpace> backing,
                                   Runnable closeOnFailure, String name) {
        ProcessLock lock;
        try {
            lock = ProcessLock.acquire(lockFile);
        } catch (RuntimeException e) {
            closeOnFailure.run();
            throw e;
        }
        try {
            return construct(name, backing.get(), lock, options);
        } catch (RuntimeException e) {
            lock.close();
            throw e;
        }
    }

    /** Opens the volume on {@code space}; closes the space (not the lock) if that fails. */
    private static MostVolume construct(String name, BlockSpace space, ProcessLock lock, VolumeOptions options) {
        try {
            return new MostVolume(name, space, lock, options);
        } catch (RuntimeException e) {
            try {
                space.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private static long deviceSize(Path file, long capacity, VolumeOptions options) {
        boolean exists = Files.exists(file);
        if (!exists && !options.create()) {
            throw new ConfigurationException("no MOST volume file '" + file + "': create it with"
                    + " VolumeOptions.create(true), or check the path");
        }
        long existing = exists ? fileSize(file) : 0;
        if (capacity > 0) {
            if (existing > 0 && existing != capacity) {
                // checked before the device opens: it would extend a smaller file
                throw new ConfigurationException("'" + file + "' is " + existing + " bytes, not " + capacity
                        + ": open an existing volume with its own size (or capacity 0)");
            }
            return capacity;
        }
        if (existing > 0) {
            return existing;
        }
        throw new ConfigurationException("a new MOST volume '" + file + "' needs a capacity > 0");
    }

    private static long fileSize(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new ConfigurationException("cannot read the size of '" + file + "': " + e.getMessage(), e);
        }
    }

    /** Creates an empty file to lock before the device opens it (the device extends it). */
    private static void touch(Path file) {
        if (!Files.exists(file)) {
            Path parent = file.toAbsolutePath().getParent();
            if (parent == null || !Files.isDirectory(parent)) {
                throw new ConfigurationException("cannot create MOST volume '" + file + "': directory " + parent + " does not exist");
            }
            try {
                Files.createFile(file);
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // created meanwhile: the lock decides who uses it
            } catch (IOException e) {
                throw new ConfigurationException("cannot create MOST volume '" + file + "': " + e.getMessage(), e);
            }
        }
    }
}
