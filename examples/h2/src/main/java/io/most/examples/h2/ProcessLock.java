package io.most.examples.h2;

import io.most.ConfigurationException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive operating-system lock on a volume's file, held while the volume is open, so that a
 * second process (or a second open in this JVM) fails with {@link VolumeLockedException} instead of
 * writing the same blocks. The lock is an advisory {@code fcntl} lock: the kernel drops it when the
 * process dies, so a kill -9 never leaves a stale lock behind.
 */
final class ProcessLock implements AutoCloseable {
    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;

    private ProcessLock(Path file, FileChannel channel, FileLock lock) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Locks {@code file}, which must exist.
     *
     * @throws VolumeLockedException  if another process or another open in this JVM holds it
     * @throws ConfigurationException if the file cannot be opened for writing
     */
    static ProcessLock acquire(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new ConfigurationException("cannot lock '" + file + "': no such file");
        }
        FileChannel channel;
        try {
            channel = FileChannel.open(file, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new ConfigurationException("cannot open '" + file + "' to lock it: " + e.getMessage(), e);
        }
        try {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw new VolumeLockedException("the MOST volume '" + file + "' is in use by another process;"
                        + " close the database there first");
            }
            return new ProcessLock(file, channel, lock);
        } catch (OverlappingFileLockException e) {
            closeQuietly(channel);
            throw new VolumeLockedException("the MOST volume '" + file + "' is already open in this JVM;"
                    + " use the open MostVolume (or close it first)");
        } catch (IOException e) {
            closeQuietly(channel);
            throw new ConfigurationException("cannot lock '" + file + "': " + e.getMessage(), e);
        } catch (VolumeLockedException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    /** The locked file. */
    Path file() {
        return file;
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException ignored) {
            // closing the channel releases it too
        }
        closeQuietly(channel);
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing was written through this channel
        }
    }
}
