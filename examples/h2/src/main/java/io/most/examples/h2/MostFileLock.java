package io.most.examples.h2;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;

/**
 * A lock on a file of a {@link MostVolume}, as returned by {@link MostFileChannel#tryLock}. Volume
 * files are locked as a whole within the JVM (H2 always locks the whole file); the volume's
 * {@link ProcessLock} keeps other processes out of every file at once.
 */
final class MostFileLock extends FileLock {
    private final FileNode node;
    private boolean valid = true;

    MostFileLock(FileChannel channel, FileNode node, long position, long size, boolean shared) {
        super(channel, position, size, shared);
        this.node = node;
    }

    @Override
    public synchronized boolean isValid() {
        return valid && channel().isOpen();
    }

    @Override
    public synchronized void release() {
        if (valid) {
            valid = false;
            node.unlock(isShared());
        }
    }
}
