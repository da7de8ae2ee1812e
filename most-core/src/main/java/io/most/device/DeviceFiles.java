package io.most.device;

import io.most.errors.ConfigurationException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Checks shared by the file-backed devices before they create or grow a file. */
final class DeviceFiles {
    private DeviceFiles() {
    }

    /** The device name for a path: its file name. */
    static String nameOf(Path path) {
        return path.getFileName() == null ? path.toString() : path.getFileName().toString();
    }

    /** The size of {@code path} in bytes, 0 if it does not exist. */
    static long sizeOf(Path path) {
        try {
            return Files.exists(path) ? Files.size(path) : 0;
        } catch (IOException e) {
            throw new ConfigurationException("cannot inspect '" + path + "': " + e.getMessage(), e);
        }
    }

    /** Makes the entry of a newly created {@code file} durable by syncing its directory. */
    static void syncParent(NativeIO io, Path file) {
        Path dir = file.toAbsolutePath().getParent();
        try {
            io.syncDirectory(dir.toString());
        } catch (NativeIO.NativeException e) {
            throw new DeviceIOException("cannot sync directory '" + dir + "' after creating '" + file + "': "
                    + e.getMessage(), e);
        }
    }

    /**
     * Checks that {@code path} can hold a device of {@code capacity} bytes with {@code blockSize}
     * blocks, without touching the file system.
     *
     * @throws ConfigurationException if the sizes are wrong or the directory is missing or read-only
     * @throws DeviceFullException    if growing the file to {@code capacity} needs more than the free space
     */
    static void checkCreatable(Path path, long capacity, int blockSize, String kind) {
        AbstractBlockDevice.checkBlockSize(blockSize, nameOf(path));
        if (capacity <= 0 || capacity % blockSize != 0) {
            throw new ConfigurationException(kind + " capacity " + capacity + " of '" + path
                    + "' must be a positive multiple of the block size " + blockSize);
        }
        Path dir = path.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new ConfigurationException("directory of " + kind + " file '" + path + "' does not exist: create it first");
        }
        if (Files.exists(path) ? !Files.isWritable(path) : !Files.isWritable(dir)) {
            throw new ConfigurationException(kind + " file '" + path
                    + "' is not writable: fix its permissions or choose another path");
        }
        try {
            long existing = Files.exists(path) ? Files.size(path) : 0;
            long free = Files.getFileStore(dir).getUsableSpace();
            if (capacity - existing > free) {
                throw new DeviceFullException("no space for " + kind + " file '" + path + "' of " + capacity
                        + " bytes (" + free + " bytes free): free space or choose a smaller capacity");
            }
        } catch (IOException e) {
            throw new ConfigurationException("cannot inspect '" + path + "': " + e.getMessage(), e);
        }
    }
}
