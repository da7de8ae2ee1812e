package io.most.device;

import io.most.errors.ConfigurationException;
import io.most.errors.FileInUseException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.OptionalLong;

/**
 * An exclusive OS lock on a store file, held for as long as the store has the file open, so that a
 * second store on the same file, in this process or another, is refused instead of overwriting the
 * first one's data.
 *
 * <p>On Linux it is a BSD {@code flock} on a descriptor of its own: such a lock belongs to that open
 * file, so it conflicts with a second open in the same process too, and closing some other descriptor
 * of the file (which drops POSIX {@code fcntl} locks, the kind {@link FileChannel#tryLock} takes) does
 * not release it. It dies with the process, so a killed store never leaves its files locked.
 * Without native access it falls back to {@link FileChannel#tryLock}.
 */
public final class StoreFileLock implements AutoCloseable {
    private final Path path;
    private final NativeIO io;
    private final int fd;
    private final FileChannel channel;

    private StoreFileLock(Path path, NativeIO io, int fd, FileChannel channel) {
        this.path = path;
        this.io = io;
        this.fd = fd;
        this.channel = channel;
    }

    /**
     * Locks the existing file {@code path}, which a store uses as {@code role} (for messages).
     *
     * @throws FileInUseException     if another store holds it
     * @throws ConfigurationException if the file cannot be opened
     */
    public static StoreFileLock acquire(Path path, String role) {
        NativeIO io = NativeIO.get().orElse(null);
        return io != null ? acquireNative(path, role, io) : acquireChannel(path, role);
    }

    /**
     * Locks {@code path}, first creating it (empty, with its directories) if it is absent: for a lock
     * file of its own beside files that something else opens and locks, or replaces by a rename.
     *
     * @throws FileInUseException     if another store holds it
     * @throws ConfigurationException if the file cannot be created or opened
     */
    public static StoreFileLock acquireCreating(Path path, String role) {
        try {
            if (path.getParent() != null) {
                Files.createDirectories(path.getParent());
            }
            if (!Files.exists(path)) {
                Files.createFile(path);
            }
        } catch (java.nio.file.FileAlreadyExistsException raced) {
            // another opener created it between the check and here (only its lock counts), or a file
            // stands where a directory of the path should be
            if (!Files.isRegularFile(path)) {
                throw new ConfigurationException("cannot create " + role + " '" + path + "': '" + raced.getFile()
                        + "' is in the way; choose another path", raced);
            }
        } catch (IOException e) {
            throw new ConfigurationException("cannot create " + role + " '" + path + "': " + e.getMessage(), e);
        }
        return acquire(path, role);
    }

    private static StoreFileLock acquireNative(Path path, String role, NativeIO io) {
        int fd;
        try {
            fd = io.open(path.toString(), NativeIO.O_RDWR | NativeIO.O_CLOEXEC, 0);
        } catch (NativeIO.NativeException e) {
            throw new ConfigurationException("cannot open " + role + " '" + path + "' to lock it: " + e.getMessage(), e);
        }
        try {
            io.flock(fd, NativeIO.LOCK_EX | NativeIO.LOCK_NB);
            return new StoreFileLock(path, io, fd, null);
        } catch (NativeIO.NativeException e) {
            closeQuietly(io, fd);
            if (e.errno == NativeIO.EWOULDBLOCK) {
                throw inUse(path, role, holderOf(path));
            }
            throw new ConfigurationException("cannot lock " + role + " '" + path + "': " + e.getMessage(), e);
        }
    }

    private static StoreFileLock acquireChannel(Path path, String role) {
        try {
            FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                channel.close();
                throw inUse(path, role, "");
            }
            return new StoreFileLock(path, null, -1, channel);
        } catch (IOException e) {
            throw new ConfigurationException("cannot lock " + role + " '" + path + "': " + e.getMessage(), e);
        }
    }

    private static FileInUseException inUse(Path path, String role, String holder) {
        return new FileInUseException(role + " '" + path + "' is open in another store" + holder
                + ": close that store first (two stores on one file would corrupt each other)");
    }

    /** The locked file. */
    public Path path() {
        return path;
    }

    /** Releases the lock. Idempotent failures are ignored: the lock dies with its descriptor anyway. */
    @Override
    public void close() {
        if (io != null) {
            closeQuietly(io, fd);
        } else {
            try {
                channel.close();
            } catch (IOException ignored) {
                // closing releases the lock; nothing else to do
            }
        }
    }

    private static void closeQuietly(NativeIO io, int fd) {
        try {
            io.close(fd);
        } catch (NativeIO.NativeException ignored) {
            // the descriptor is gone either way
        }
    }

    /** Names the process holding a {@code flock} on a file, for a message ("" if unknown). */
    private static String holderOf(Path path) {
        OptionalLong holder = holder(path);
        if (holder.isEmpty()) {
            return "";
        }
        long pid = holder.getAsLong();
        return pid == ProcessHandle.current().pid() ? " (in this process, pid " + pid + ")" : " (process " + pid + ")";
    }

    /**
     * The process holding a {@code flock} on {@code path} (a {@code StoreFileLock} or another), from
     * {@code /proc/locks}; empty where the system does not tell or nobody holds one. A caller can tell
     * "open elsewhere in this process" from "open in another process" by comparing it with
     * {@link ProcessHandle#pid()}.
     */
    public static OptionalLong holder(Path path) {
        try {
            Object inode = Files.getAttribute(path, "unix:ino");
            Path locks = Path.of("/proc/locks");
            if (!Files.isReadable(locks)) {
                return OptionalLong.empty();
            }
            for (String line : Files.readAllLines(locks)) {
                String[] f = line.trim().split("\\s+");
                // "1: FLOCK ADVISORY WRITE <pid> <maj>:<min>:<inode> 0 EOF"
                if (f.length >= 6 && f[1].equals("FLOCK") && f[5].endsWith(":" + inode)) {
                    return OptionalLong.of(Long.parseLong(f[4]));
                }
            }
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            // the holder is a courtesy in a message; the refusal stands without it
        }
        return OptionalLong.empty();
    }
}
