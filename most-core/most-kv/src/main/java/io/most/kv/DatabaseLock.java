package io.most.kv;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An OS file lock on {@code <log>.lock}, held for a database's life, so that a second
 * {@link KvDatabase#open} of the same log (in this process or another) is refused before it reads
 * or writes anything: two engines appending to one log, or recovering over each other's pages,
 * would destroy both.
 *
 * <p>A lock file of its own rather than a lock on the log: the log is replaced by a rename when it
 * is truncated, and a lock belongs to the file it was taken on, so a lock on the log would silently
 * stop covering it. The lock file holds the holder's process id (for the error message); it stays
 * behind after close, which is harmless: only the lock counts, and the OS drops it when the process
 * dies, so a crash never leaves the database locked.
 */
final class DatabaseLock implements AutoCloseable {
    private final Path path;
    private final FileChannel channel;
    private final FileLock lock;

    private DatabaseLock(Path path, FileChannel channel, FileLock lock) {
        this.path = path;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock of the database whose log is {@code logPath}.
     *
     * @throws DatabaseInUseException if another open database holds it
     */
    static DatabaseLock acquire(Path logPath) {
        Path path = logPath.resolveSibling(logPath.getFileName() + ".lock");
        FileChannel channel = null;
        try {
            if (path.getParent() != null) {
                Files.createDirectories(path.getParent());
            }
            channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null; // held by this JVM
            }
            if (lock == null) {
                String holder = holder(channel);
                channel.close();
                throw new DatabaseInUseException("the database of log " + logPath + " is open already"
                        + (holder.isEmpty() ? "" : " (by process " + holder + ")") + ": its lock file " + path
                        + " is held; close that database first (nothing was read or changed)");
            }
            byte[] pid = Long.toString(ProcessHandle.current().pid()).getBytes(StandardCharsets.US_ASCII);
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(pid), 0);
            return new DatabaseLock(path, channel, lock);
        } catch (IOException e) {
            if (channel != null) {
                try {
                    channel.close();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw new UncheckedIOException("cannot lock database lock file " + path, e);
        }
    }

    private static String holder(FileChannel channel) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(32);
        channel.read(b, 0);
        return new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII).trim();
    }

    /** Releases the lock. */
    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot release database lock file " + path, e);
        }
    }
}
