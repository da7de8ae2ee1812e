package io.most.examples.h2;

import io.most.errors.ConfigurationException;
import io.most.errors.FileInUseException;
import io.most.device.StoreFileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * An exclusive operating-system lock for a volume's file, held while the volume is open, so that a
 * second process (or a second open in this JVM) fails with {@link VolumeLockedException} instead of
 * writing the same blocks. It is core's {@link StoreFileLock} (a BSD {@code flock}, which the kernel
 * drops when the process dies, so a kill -9 never leaves a stale lock behind) on a lock file of its
 * own, {@code <volume file>.lock}: the volume's file itself is locked by the device that opens it,
 * and a second lock on one file in one process would refuse that device.
 */
final class ProcessLock implements AutoCloseable {
    private final Path file;
    private final StoreFileLock lock;

    private ProcessLock(Path file, StoreFileLock lock) {
        this.file = file;
        this.lock = lock;
    }

    /**
     * Locks {@code file}, which must exist.
     *
     * @throws VolumeLockedException  if another process or another open in this JVM holds it
     * @throws ConfigurationException if the file or its lock file cannot be opened
     */
    static ProcessLock acquire(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new ConfigurationException("cannot lock '" + file + "': no such file");
        }
        Path lockFile = file.resolveSibling(file.getFileName() + ".lock");
        try {
            return new ProcessLock(file, StoreFileLock.acquireCreating(lockFile, "volume lock file"));
        } catch (FileInUseException e) {
            OptionalLong holder = StoreFileLock.holder(lockFile);
            if (holder.isPresent() && holder.getAsLong() == ProcessHandle.current().pid()) {
                throw new VolumeLockedException("the MOST volume '" + file + "' is already open in this JVM;"
                        + " use the open MostVolume (or close it first)");
            }
            throw new VolumeLockedException("the MOST volume '" + file + "' is in use by another process;"
                    + " close the database there first");
        }
    }

    /** The locked file. */
    Path file() {
        return file;
    }

    @Override
    public void close() {
        lock.close();
    }
}
