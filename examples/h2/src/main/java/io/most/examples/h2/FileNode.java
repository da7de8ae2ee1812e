package io.most.examples.h2;

import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * One entry of a volume's directory: a file (size, modification time, extent map) or a directory.
 * Data reads take {@link #lock}'s read lock, writes and truncation its write lock; the size is
 * volatile so {@code size()} needs no lock. Also holds the in-process H2 file lock state
 * ({@link #tryLock}).
 */
final class FileNode {
    final boolean directory;
    final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    final BlockList blocks;
    volatile long size;
    volatile long lastModified;
    volatile boolean deleted;

    // guarded by "this": the FileChannel lock held on this file (H2 locks the whole file)
    private int sharedHolders;
    private boolean exclusiveHeld;

    FileNode(boolean directory, long size, long lastModified, BlockList blocks) {
        this.directory = directory;
        this.size = size;
        this.lastModified = lastModified;
        this.blocks = blocks;
    }

    static FileNode newFile() {
        return new FileNode(false, 0, System.currentTimeMillis(), new BlockList());
    }

    static FileNode newDirectory() {
        return new FileNode(true, 0, System.currentTimeMillis(), new BlockList());
    }

    /** Takes the file lock if no conflicting holder has it; false otherwise. */
    synchronized boolean tryLock(boolean shared) {
        if (exclusiveHeld || (!shared && sharedHolders > 0)) {
            return false;
        }
        if (shared) {
            sharedHolders++;
        } else {
            exclusiveHeld = true;
        }
        return true;
    }

    /** Releases a lock taken with {@link #tryLock}. */
    synchronized void unlock(boolean shared) {
        if (shared) {
            sharedHolders--;
        } else {
            exclusiveHeld = false;
        }
    }
}
