package io.most.examples.h2;

import io.most.errors.MostException;
import io.most.PageStoreStats;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A small file system on a MOST backing (a {@link io.most.device.BlockDevice} or a
 * {@link io.most.PageStore}) that holds an H2 database's files. Create one with {@link MostVolumes},
 * make it visible to H2 with {@link MostFileSystem#mount}, and close it when the databases in it are
 * closed.
 *
 * <p><b>Layout.</b> Volume blocks 0 and 1 hold two superblocks (format version, volume id, geometry,
 * generation, CRC32C) written alternately; they name the directory (every file's size, modification
 * time and extent map), which is written copy-on-write to free blocks. File data lives in the other
 * blocks, addressed by byte: unaligned reads and writes become partial-block operations on the backing.
 *
 * <p><b>Durability.</b> {@link #force()} (H2's {@code FileChannel.force}) forces the backing, then, if
 * any file's size or blocks changed, commits the directory. After a crash the volume opens at the last
 * commit, with every write forced before it. A block freed by truncation or deletion is reused only
 * after the commit that freed it and the next one are durable, so neither superblock slot ever names
 * overwritten data. A background thread forces every {@link VolumeOptions#syncInterval()}.
 *
 * <p><b>Concurrency.</b> Thread-safe. Reads of one file run in parallel; writes and truncation of a
 * file are serialized with each other and with its reads; namespace changes and commits briefly
 * exclude writers. The volume is locked against other processes while it is open.
 *
 * <p>Why this class is large: it is the file system's one lock domain: file data, the directory and the
 * commit protocol change under the same locks, so the operations that take them live together; encoding
 * (DirectoryCodec, Superblock), allocation (BlockAllocator) and block access (BlockSpace) are their own
 * classes.
 */
public final class MostVolume implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(MostVolume.class.getName());

    private final String name;
    private final BlockSpace space;
    private final AutoCloseable processLock;
    private final BlockAllocator allocator;
    private final VolumeMetadata metadata;
    private final FileData data;
    /** Directory entries by path relative to the volume root ("" is the root, never stored). */
    private final TreeMap<String, FileNode> entries;
    /** Read lock: data writes and truncation; write lock: namespace changes and directory snapshots. */
    private final ReentrantReadWriteLock structure = new ReentrantReadWriteLock();
    private final ReentrantLock commitLock = new ReentrantLock();
    private final AtomicBoolean metadataDirty = new AtomicBoolean();
    private final AtomicBoolean unforcedWrites = new AtomicBoolean();
    private final ScheduledExecutorService syncer;
    private volatile boolean closed;
    /** Blocks freed before the last commit: reusable once the next commit is durable too. */
    private BitSet freedBeforeLastCommit = new BitSet();

    MostVolume(String name, BlockSpace space, AutoCloseable processLock, VolumeOptions options) {
        this.name = name;
        this.space = space;
        this.processLock = processLock;
        VolumeMetadata.Opened opened = VolumeMetadata.open(space, options.create());
        this.metadata = opened.metadata();
        this.entries = opened.entries();
        this.allocator = new BlockAllocator(space.blockCount());
        this.data = new FileData(space, allocator, metadata::commitReserve);
        rebuildAllocation();
        if (options.syncInterval().isPositive()) {
            long millis = Math.max(1, options.syncInterval().toMillis());
            syncer = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().daemon()
                    .name("most-h2-sync-" + name).unstarted(r));
            syncer.scheduleWithFixedDelay(this::backgroundSync, millis, millis, TimeUnit.MILLISECONDS);
        } else {
            syncer = null;
        }
    }

    /** The name given at creation (the backing's file name), for messages. */
    public String name() {
        return name;
    }

    /** The volume's identity, fixed when it was created. */
    public UUID volumeId() {
        return metadata.volumeId();
    }

    /** Generation of the newest durable commit (for tests and diagnostics). */
    long generation() {
        return metadata.generation();
    }

    /** Bytes per block (device block, or page payload for a page store). */
    public int blockBytes() {
        return space.blockBytes();
    }

    /** Number of blocks, metadata included. */
    public long blockCount() {
        return space.blockCount();
    }

    /** Blocks in use by files and metadata. */
    public long usedBlocks() {
        return allocator.usedBlocks();
    }

    /**
     * The most blocks in use at once since the volume opened (metadata included): how large a device
     * the files' growth has needed so far, e.g. to size a device for a database that appends.
     */
    public long peakUsedBlocks() {
        return allocator.peakUsedBlocks();
    }

    /** What the volume is on, e.g. {@code "block device h2.most (4096-byte blocks, ...)"}. */
    public String describe() {
        return space.describe();
    }

    /**
     * The counters of the page store under the volume (DRAM and PM hits, misses that read the block
     * device, migrations), or empty on a block device backing: where H2's reads were served.
     */
    public Optional<PageStoreStats> pageStoreStats() {
        return space.pageStoreStats();
    }

    /** Paths (relative to the volume root, '/'-separated) of every file and directory. */
    public List<String> paths() {
        structure.readLock().lock();
        try {
            synchronized (entries) {
                return List.copyOf(entries.keySet());
            }
        } finally {
            structure.readLock().unlock();
        }
    }

    /**
     * Makes every write so far durable: forces the backing and commits the directory if it changed.
     *
     * @throws MostException if the backing fails; the volume stays at its previous durable state
     */
    public void force() {
        sync(false);
    }

    /** Forces the backing and commits the directory if it changed, or anyway if {@code commitAlways}. */
    private void sync(boolean commitAlways) {
        commitLock.lock();
        try {
            checkOpen();
            boolean commit = metadataDirty.get() || commitAlways;
            byte[] directory = null;
            BitSet freed = null;
            if (commit) {
                // snapshot first: with writers excluded, every write the directory reflects has
                // completed, so the force below makes its data durable before the directory names it
                structure.writeLock().lock();
                try {
                    synchronized (entries) {
                        directory = DirectoryCodec.encode(entries);
                    }
                    freed = allocator.pendingSnapshot();
                    metadataDirty.set(false);
                } finally {
                    structure.writeLock().unlock();
                }
            }
            try {
                if (unforcedWrites.getAndSet(false)) {
                    space.force();
                }
            } catch (RuntimeException e) {
                unforcedWrites.set(true);
                metadataDirty.compareAndSet(false, commit);
                throw e;
            }
            if (!commit) {
                return;
            }
            List<Long> unnamed;
            try {
                unnamed = metadata.commit(directory, allocator);
            } catch (RuntimeException e) {
                metadataDirty.set(true);
                throw e;
            }
            // blocks freed before the previous commit, and the directory of the slot just overwritten:
            // neither slot names them now
            BitSet reusable = freedBeforeLastCommit;
            for (long b : unnamed) {
                allocator.free(b);
                reusable.set((int) b);
            }
            freed.andNot(reusable);
            release(reusable);
            freedBeforeLastCommit = freed;
        } finally {
            commitLock.unlock();
        }
    }

    /** Unmounts, forces, stops the background sync, releases the process lock and closes the backing. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        MostFileSystem.unmount(this);
        if (syncer != null) {
            syncer.shutdownNow();
            try {
                syncer.awaitTermination(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        commitLock.lock();
        try {
            if (closed) {
                return;
            }
            try {
                force();
            } finally {
                closed = true;
                try {
                    space.close();
                } finally {
                    try {
                        processLock.close();
                    } catch (Exception e) {
                        LOG.log(System.Logger.Level.WARNING, "cannot release the lock of volume " + name, e);
                    }
                }
            }
        } finally {
            commitLock.unlock();
        }
    }

    /** Whether {@link #close()} has not been called. */
    public boolean isOpen() {
        return !closed;
    }

    @Override
    public String toString() {
        return "MostVolume[" + name + ", " + volumeId() + ", " + describe() + "]";
    }

    // ---- namespace, used by MostFilePath ------------------------------------------------------

    FileNode lookup(String path) {
        if (path.isEmpty()) {
            return ROOT;
        }
        synchronized (entries) {
            return entries.get(path);
        }
    }

    /** Creates a file or directory; false if the path exists. The parent must be a directory. */
    boolean create(String path, boolean directory) {
        checkOpen();
        structure.writeLock().lock();
        try {
            synchronized (entries) {
                if (path.isEmpty() || entries.containsKey(path)) {
                    return false;
                }
                FileNode parent = lookup(parentOf(path));
                if (parent == null || !parent.directory) {
                    throw new MostException("cannot create '" + path + "' on MOST volume " + name
                            + ": its parent directory does not exist");
                }
                entries.put(path, directory ? FileNode.newDirectory() : FileNode.newFile());
            }
            metadataDirty.set(true);
            return true;
        } finally {
            structure.writeLock().unlock();
        }
    }

    /** Deletes a file or an empty directory; no-op if missing. */
    void delete(String path) {
        checkOpen();
        structure.writeLock().lock();
        try {
            FileNode node;
            synchronized (entries) {
                node = entries.get(path);
                if (node == null) {
                    return;
                }
                if (node.directory && !children(path).isEmpty()) {
                    throw new MostException("cannot delete directory '" + path + "' on MOST volume " + name + ": not empty");
                }
                entries.remove(path);
            }
            discard(node);
            metadataDirty.set(true);
        } finally {
            structure.writeLock().unlock();
        }
    }

    /** Renames {@code from} to {@code to}, replacing an existing file {@code to} only if {@code replace}. */
    void rename(String from, String to, boolean replace) {
        checkOpen();
        structure.writeLock().lock();
        try {
            FileNode replaced;
            synchronized (entries) {
                FileNode node = entries.get(from);
                if (node == null) {
                    throw new MostException("cannot rename '" + from + "' on MOST volume " + name + ": not found");
                }
                replaced = entries.get(to);
                if (replaced != null && (!replace || replaced.directory)) {
                    throw new MostException("cannot rename '" + from + "' to '" + to + "' on MOST volume " + name + ": target exists");
                }
                FileNode parent = lookup(parentOf(to));
                if (parent == null || !parent.directory) {
                    throw new MostException("cannot rename to '" + to + "' on MOST volume " + name + ": no parent directory");
                }
                if (node.directory && !children(from).isEmpty()) {
                    throw new MostException("cannot rename non-empty directory '" + from + "' on MOST volume " + name);
                }
                entries.remove(from);
                entries.put(to, node);
            }
            if (replaced != null) {
                discard(replaced);
            }
            metadataDirty.set(true);
        } finally {
            structure.writeLock().unlock();
        }
    }

    /** Paths of the direct children of directory {@code path}. */
    List<String> children(String path) {
        String prefix = path.isEmpty() ? "" : path + "/";
        List<String> out = new ArrayList<>();
        synchronized (entries) {
            for (Map.Entry<String, FileNode> e : entries.tailMap(prefix, true).entrySet()) {
                String key = e.getKey();
                if (!key.startsWith(prefix)) {
                    break;
                }
                if (key.length() > prefix.length() && key.indexOf('/', prefix.length()) < 0) {
                    out.add(key);
                }
            }
        }
        return out;
    }

    // ---- file data, used by MostFileChannel ---------------------------------------------------

    int read(FileNode node, long position, ByteBuffer dst) {
        node.lock.readLock().lock();
        try {
            checkOpen();
            checkLive(node);
            return data.read(node, position, dst);
        } finally {
            node.lock.readLock().unlock();
        }
    }

    int write(FileNode node, long position, ByteBuffer src) {
        try {
            return writeOnce(node, position, src);
        } catch (io.most.errors.OutOfSpaceException e) {
            if (allocator.pendingBlocks() == 0) {
                throw e;
            }
            // freed blocks become reusable after two commits (see force): make them so and retry once
            sync(true);
            sync(true);
            return writeOnce(node, position, src);
        }
    }

    private int writeOnce(FileNode node, long position, ByteBuffer src) {
        int n = src.remaining();
        changeFile(node, () -> data.write(node, position, src));
        unforcedWrites.set(true);
        return n;
    }

    void truncate(FileNode node, long size) {
        changeFile(node, () -> data.truncate(node, size));
    }

    /**
     * Runs a change of {@code node}'s data under the structure's read lock (no directory snapshot in
     * between) and the file's write lock; the change returns whether the file's metadata changed.
     */
    private void changeFile(FileNode node, java.util.function.BooleanSupplier change) {
        structure.readLock().lock();
        try {
            node.lock.writeLock().lock();
            try {
                checkOpen();
                checkLive(node);
                if (change.getAsBoolean()) {
                    metadataDirty.set(true);
                }
            } finally {
                node.lock.writeLock().unlock();
            }
        } finally {
            structure.readLock().unlock();
        }
    }

    /** Marks a node removed from the directory as deleted and frees its blocks. */
    private void discard(FileNode node) {
        node.lock.writeLock().lock();
        try {
            node.deleted = true;
            data.freeAll(node);
        } finally {
            node.lock.writeLock().unlock();
        }
    }

    // ---- internals ------------------------------------------------------------------------------

    /** The root directory: exists while the volume is open, never stored. */
    private static final FileNode ROOT = FileNode.newDirectory();

    static String parentOf(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? "" : path.substring(0, slash);
    }

    private void backgroundSync() {
        if (closed || (!metadataDirty.get() && !unforcedWrites.get())) {
            return;
        }
        try {
            force();
        } catch (RuntimeException e) {
            if (!closed) {
                LOG.log(System.Logger.Level.WARNING, "background sync of MOST volume " + name + " failed", e);
            }
        }
    }

    private void release(BitSet blocks) {
        allocator.reuse(blocks);
        if (space.tracksAllocation()) {
            for (int b = blocks.nextSetBit(0); b >= 0; b = blocks.nextSetBit(b + 1)) {
                space.release(b);
            }
        }
    }

    /** Marks every block the durable state names; on a page store, frees pages it does not name. */
    private void rebuildAllocation() {
        BitSet named = new BitSet();
        metadata.forEachReserved(b -> named.set((int) b));
        for (Map.Entry<String, FileNode> e : entries.entrySet()) {
            e.getValue().blocks.forEach(b -> {
                if (named.get((int) b)) {
                    throw new VolumeFormatException("MOST H2 volume " + name + " is corrupt: block " + b
                            + " of '" + e.getKey() + "' is used twice");
                }
                named.set((int) b);
            });
        }
        for (int b = named.nextSetBit(0); b >= 0; b = named.nextSetBit(b + 1)) {
            allocator.markUsed(b);
        }
        if (space.tracksAllocation()) {
            // pages allocated after the last commit before a crash: nothing names them now
            for (long b = 0; b < space.blockCount(); b++) {
                if (!named.get((int) b) && space.inUse(b)) {
                    space.release(b);
                }
            }
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("MOST volume " + name + " is closed");
        }
    }

    private static void checkLive(FileNode node) {
        if (node.deleted) {
            throw new IllegalStateException("the file was deleted while open");
        }
    }
}
