package io.most.examples.h2;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileLock;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.OverlappingFileLockException;
import java.util.ArrayList;
import java.util.List;
import org.h2.store.fs.FileBaseDefault;

/**
 * H2's view of one file of a {@link MostVolume}: positional reads and writes at any offset and
 * length, size, truncate, {@link #force} (durable: forces the backing and commits the volume's
 * directory) and a real {@link #tryLock} (null while another channel holds a conflicting lock, which
 * H2's MVStore reports as "file is locked"). Errors of the volume (a full device, a closed volume) are
 * reported as {@link IOException}s with the volume's message, as H2 expects from a file.
 *
 * <p>Positional reads run concurrently; the channel position ({@code read(ByteBuffer)} and friends,
 * from {@link FileBaseDefault}) is synchronized. Thread interrupts do not close this channel.
 */
final class MostFileChannel extends FileBaseDefault {
    private final MostVolume volume;
    private final FileNode node;
    private final String name;
    private final boolean readOnly;
    private final boolean syncWrites;
    private final List<MostFileLock> locks = new ArrayList<>();

    MostFileChannel(MostVolume volume, FileNode node, String name, boolean readOnly, boolean syncWrites) {
        this.volume = volume;
        this.node = node;
        this.name = name;
        this.readOnly = readOnly;
        this.syncWrites = syncWrites;
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        checkPosition(position);
        ensureOpen();
        try {
            return volume.read(node, position, dst);
        } catch (RuntimeException e) {
            throw ioError("read", position, e);
        }
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        checkPosition(position);
        ensureOpen();
        if (readOnly) {
            throw new NonWritableChannelException();
        }
        try {
            int n = volume.write(node, position, src);
            if (syncWrites) {
                volume.force();
            }
            return n;
        } catch (RuntimeException e) {
            throw ioError("write", position, e);
        }
    }

    @Override
    public long size() throws IOException {
        ensureOpen();
        return node.size;
    }

    @Override
    protected void implTruncate(long newLength) throws IOException {
        if (newLength < 0) {
            throw new IllegalArgumentException("negative size " + newLength);
        }
        ensureOpen();
        if (readOnly) {
            throw new NonWritableChannelException();
        }
        try {
            volume.truncate(node, newLength);
        } catch (RuntimeException e) {
            throw ioError("truncate", newLength, e);
        }
    }

    @Override
    public void force(boolean metaData) throws IOException {
        ensureOpen();
        try {
            volume.force();
        } catch (RuntimeException e) {
            throw ioError("force", 0, e);
        }
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        ensureOpen();
        if (!shared && readOnly) {
            throw new NonWritableChannelException();
        }
        synchronized (locks) {
            for (MostFileLock held : locks) {
                if (held.isValid()) {
                    // what a FileChannel does for an overlapping lock held through the same JVM
                    throw new OverlappingFileLockException();
                }
            }
            if (!node.tryLock(shared)) {
                return null;
            }
            MostFileLock lock = new MostFileLock(this, node, position, size, shared);
            locks.add(lock);
            return lock;
        }
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
        FileLock lock = tryLock(position, size, shared);
        if (lock == null) {
            throw new IOException("'" + name + "' is locked by another open channel of this JVM");
        }
        return lock;
    }

    @Override
    protected void implCloseChannel() {
        synchronized (locks) {
            for (MostFileLock lock : locks) {
                lock.release();
            }
            locks.clear();
        }
    }

    @Override
    public String toString() {
        return "most:" + name;
    }

    private void ensureOpen() throws IOException {
        if (!isOpen()) {
            throw new ClosedChannelException();
        }
    }

    private static void checkPosition(long position) {
        if (position < 0) {
            throw new IllegalArgumentException("negative position " + position);
        }
    }

    private IOException ioError(String operation, long position, RuntimeException e) {
        return new IOException("cannot " + operation + " '" + name + "' at " + position + " on MOST volume "
                + volume.name() + ": " + e.getMessage(), e);
    }
}
