package io.most.kv;

import io.most.errors.FileInUseException;
import io.most.device.StoreFileLock;
import java.nio.file.Path;

/**
 * An OS file lock on {@code <log>.lock}, held for a database's life, so that a second
 * {@link KvDatabase#open} of the same log (in this process or another) is refused before it reads
 * or writes anything: two engines appending to one log, or recovering over each other's pages,
 * would destroy both.
 *
 * <p>A lock file of its own rather than a lock on the log: the log is replaced by a rename when it
 * is truncated, and a lock belongs to the file it was taken on, so a lock on the log would silently
 * stop covering it. The lock is core's {@link StoreFileLock} (a {@code flock} of its own
 * descriptor, which closing another descriptor of the file cannot drop, and which names its holder
 * from {@code /proc/locks}); the file stays behind after close, which is harmless: only the lock
 * counts, and the OS drops it when the process dies, so a crash never leaves the database locked.
 */
final class DatabaseLock implements AutoCloseable {
    private final StoreFileLock lock;

    private DatabaseLock(StoreFileLock lock) {
        this.lock = lock;
    }

    /**
     * Takes the lock of the database whose log is {@code logPath}.
     *
     * @throws DatabaseInUseException if another open database holds it
     */
    static DatabaseLock acquire(Path logPath) {
        Path path = logPath.resolveSibling(logPath.getFileName() + ".lock");
        try {
            return new DatabaseLock(StoreFileLock.acquireCreating(path, "database lock file"));
        } catch (FileInUseException e) {
            throw new DatabaseInUseException("the database of log " + logPath + " is open already: "
                    + e.getMessage() + " (nothing was read or changed)");
        }
    }

    /** Releases the lock. */
    @Override
    public void close() {
        lock.close();
    }
}
