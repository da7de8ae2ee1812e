package io.most.kv;

import io.most.Page;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.PageStoreStats;
import io.most.device.StoreFileLock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An ordered byte-key store that one thread writes and any thread reads, for engines that keep their
 * own log: Kafka Streams, whose changelog topic replays every change after the last checkpoint.
 *
 * <p><b>No lock table, no per-key log record.</b> The same B+tree as {@link KvDatabase} (optimistic
 * readers, latched writers), without transactions: a put or delete is one tree operation. Durability
 * is the {@link #checkpoint} alone: it makes every page durable together with a caller's metadata
 * blob (Kafka's changelog offsets) and the entry count, atomically. What a crash loses is everything
 * after the last checkpoint; the store reopens exactly at it. Atomicity comes from a rollback journal
 * ({@link RollbackJournal}): the first change of a page after a checkpoint journals the page's
 * before-image, so the journal costs one page image per page changed per checkpoint interval, however
 * many keys change on it.
 *
 * <p><b>Snapshot iterators.</b> {@link #range} returns an iterator that sees the store as it was when it
 * was opened, whatever the writer does meanwhile (RocksDB's iterators give Kafka Streams the same).
 * Chosen scheme: the iterator materializes a bounded chunk ({@value #CHUNK} entries) of the tree at a
 * time and resumes after the chunk's last key; a write to a key the iterator has not read yet first
 * hands that key's before-image (its value, or its absence) to the iterator, which prefers it to what
 * the tree holds when it gets there. So memory is a chunk plus one entry per key written in an open
 * iterator's unread range, the writer pays nothing while no iterator is open, and the tree keeps no
 * versions. Copy-on-write leaves would make writes allocate pages while any iterator is open and need
 * page reclamation by epoch; versioned cells would grow every leaf and need garbage collection: both
 * cost the common case (no iterator open) for the rare one.
 *
 * <p><b>Threads.</b> Writes, {@link #checkpoint} and {@link #close} come from one thread at a time (they
 * are serialized by a lock, which also orders them against iterators' chunk reads, so the store is
 * safe if more threads write, only slower). {@link #get} and iteration are safe from any thread.
 * An iterator is used by one thread and must be closed; {@link #close} closes any left open.
 *
 * <p>Why this class is large: its operations and the snapshot protocol between the writer and the open
 * iterators (the before-images each write hands to them) must be read together to be checked; the tree, the
 * rollback journal and the iterator are their own classes.
 */
public final class SingleWriterKvStore implements AutoCloseable {
    /** Entries an iterator reads from the tree at a time. */
    static final int CHUNK = 128;
    /** The checkpoint page: entry count and the caller's metadata, written by every checkpoint. */
    static final long CHECKPOINT_PAGE = 2;
    private static final long CHECKPOINT_MAGIC = 0x4D4F535453574331L; // "MOSTSWC1"
    private static final int CHECKPOINT_HEADER = 28;
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED;

    private final StoreFileLock fileLock;
    private final PageStore raw;
    private final RollbackJournal journal;
    private final PageStore store;
    private final BTree tree;
    private final ReentrantLock writeLock = new ReentrantLock();
    private final List<SnapshotIterator> open = new ArrayList<>();
    private final BTree.KeyChangeLogger noLog;
    private volatile long count;
    private volatile byte[] metadata;
    private volatile boolean closed;

    private SingleWriterKvStore(StoreFileLock fileLock, PageStore raw, RollbackJournal journal, int maxKey,
                                int scanPrefetchLeaves) {
        this.fileLock = fileLock;
        this.raw = raw;
        this.journal = journal;
        this.store = new JournaledPageStore(raw, journal);
        this.tree = new BTree(store, journal::lsn, maxKey);
        tree.scanPrefetch(scanPrefetchLeaves);
        this.noLog = (pageId, key, after, before) -> journal.lsn();
        try (Page p = raw.read(CHECKPOINT_PAGE)) {
            MemorySegment s = p.payload();
            this.count = s.get(I64, 16);
            byte[] m = new byte[s.get(I32, 24)];
            MemorySegment.copy(s, ValueLayout.JAVA_BYTE, CHECKPOINT_HEADER, m, 0, m.length);
            this.metadata = m;
        }
    }

    /**
     * Opens the store {@code options} describe, creating it if it does not exist, and rolls it back to
     * its last checkpoint if it was not closed. With {@link KvOptions#inDirectory} the files are
     * {@code data.most}, {@code journal.most} (the rollback journal, also the lock file) and, with PM,
     * {@code pm.most}; with {@link KvOptions#withStore} the journal is the options' log path. The
     * options' lock timeout, checkpoint interval and commit mode do not apply; the scan read-ahead does.
     *
     * @throws io.most.errors.FileInUseException if the store is open already, in this process or another
     * @throws CorruptJournalException     if the journal's header is damaged (nothing changed)
     * @throws io.most.errors.CorruptPageException if a page the store reads at open is torn or corrupt
     * @throws OptionsMismatchException    if the files hold a {@link KvDatabase} or another key bound
     */
    public static SingleWriterKvStore open(KvOptions options) {
        Objects.requireNonNull(options, "options");
        Path journalPath = options.directory != null ? options.directory.resolve("journal.most") : options.logPath;
        PageStoreConfig.Builder builder = KvDatabase.storeConfig(options);
        StoreFileLock lock = null;
        PageStore raw = null;
        RollbackJournal journal = null;
        try {
            if (!Files.exists(journalPath)) {
                Files.createFile(journalPath);
            }
            lock = StoreFileLock.acquire(journalPath, "rollback journal");
            JournalHook hook = new JournalHook();
            raw = PageStore.open(builder.walHook(hook).build());
            RollbackJournal.Contents contents = rollBack(raw, journalPath);
            journal = RollbackJournal.create(journalPath, raw.payloadSize(), contents.base() + contents.end());
            hook.journal = journal;
            int maxKey = formatOrCheck(raw, options);
            return new SingleWriterKvStore(lock, raw, journal, maxKey, options.scanPrefetchLeaves);
        } catch (IOException e) {
            closeAll(journal, raw, lock);
            throw new UncheckedIOException("cannot create rollback journal " + journalPath, e);
        } catch (RuntimeException | Error e) {
            if (raw == null) {
                builder.build().blockDevice().close(); // PageStore.open would have owned it
            }
            closeAll(journal, raw, lock);
            throw e;
        }
    }

    /** The store's WAL hook: forces the journal once it exists (rollback and format need none). */
    private static final class JournalHook implements io.most.WalHook {
        volatile RollbackJournal journal;

        @Override
        public void flushUpTo(long lsn) {
            RollbackJournal j = journal;
            if (j != null) {
                j.flushUpTo(lsn);
            }
        }
    }

    /**
     * Writes every journaled before-image back as the journal is read, then frees the pages allocated
     * since the checkpoint, and makes that durable: the store is at its last checkpoint again.
     */
    private static RollbackJournal.Contents rollBack(PageStore raw, Path journalPath) {
        List<Long> allocated = new ArrayList<>();
        RollbackJournal.Contents contents = RollbackJournal.read(journalPath, raw.payloadSize(), e -> {
            if (e.type() == RollbackJournal.IMAGE) {
                try (Page p = raw.write(e.pageId())) {
                    MemorySegment.copy(e.image(), 0, p.payload(), ValueLayout.JAVA_BYTE, 0, e.image().length);
                    p.markDirty(0);
                }
            } else {
                allocated.add(e.pageId());
            }
        });
        for (long pageId : allocated) {
            if (raw.isAllocated(pageId)) {
                raw.free(pageId);
            }
        }
        if (contents.entries() > 0) {
            raw.checkpoint();
        }
        return contents;
    }

    private static int formatOrCheck(PageStore raw, KvOptions options) {
        int payload = raw.payloadSize();
        boolean formatted = raw.isAllocated(MetaPage.PAGE);
        if (formatted) {
            try (Page meta = raw.read(MetaPage.PAGE)) {
                formatted = Node.type(meta.payload()) != Node.FORMATLESS;
            }
        }
        int maxKey;
        if (!formatted) {
            maxKey = options.maxKeySize == 0 ? BTree.defaultMaxKeySize(payload)
                    : BTree.checkMaxKey(options.maxKeySize, payload);
            BTree.format(raw, UUID.randomUUID(), maxKey);
        } else {
            try (Page meta = raw.read(MetaPage.PAGE)) {
                if (!MetaPage.isMeta(meta.payload())) {
                    throw new OptionsMismatchException("the page store does not hold a key-value store (page 0 is not"
                            + " its meta page)");
                }
                maxKey = MetaPage.maxKey(meta.payload(), payload);
            }
            if (options.maxKeySize != 0 && options.maxKeySize != maxKey) {
                throw new OptionsMismatchException("the store was created for keys of up to " + maxKey
                        + " bytes, the options ask for " + options.maxKeySize + ": leave maxKeySize unset or match it");
            }
        }
        if (!raw.isAllocated(CHECKPOINT_PAGE)) {
            // a new store, or one whose format a crash interrupted before this page
            raw.allocate(CHECKPOINT_PAGE);
            try (Page p = raw.write(CHECKPOINT_PAGE)) {
                writeCheckpointPage(p.payload(), 0, new byte[0]);
                p.markDirty(0);
            }
            raw.checkpoint();
        } else {
            try (Page p = raw.read(CHECKPOINT_PAGE)) {
                if (p.payload().get(I64, 8) != CHECKPOINT_MAGIC) {
                    throw new OptionsMismatchException("the page store holds a transactional KvDatabase, not a"
                            + " single-writer store (page 2 is not its checkpoint page)");
                }
            }
        }
        return maxKey;
    }

    private static void writeCheckpointPage(MemorySegment p, long count, byte[] metadata) {
        p.fill((byte) 0);
        p.set(ValueLayout.JAVA_BYTE, 0, Node.META);
        p.set(I64, 8, CHECKPOINT_MAGIC);
        p.set(I64, 16, count);
        p.set(I32, 24, metadata.length);
        MemorySegment.copy(metadata, 0, p, ValueLayout.JAVA_BYTE, CHECKPOINT_HEADER, metadata.length);
    }

    /** The largest metadata blob {@link #checkpoint} takes: the checkpoint page's payload less its header. */
    public int maxMetadataSize() {
        return raw.payloadSize() - CHECKPOINT_HEADER;
    }

    /** The longest key this store takes. */
    public int maxKeySize() {
        return tree.maxKey();
    }

    /** The longest value this store takes (three maximal entries must fit a page). */
    public int maxValueSize() {
        return tree.maxValue();
    }

    // ---------------------------------------------------------------- reads

    /** The value of {@code key}, or null. Safe from any thread. */
    public byte[] get(byte[] key) {
        checkOpen();
        return tree.get(Objects.requireNonNull(key, "key"));
    }

    /**
     * How many pages changed (or were allocated) since the last {@link #checkpoint}: what the next
     * checkpoint writes at most, what a crash rolls back, and how many before-images the journal holds.
     */
    public int changedPages() {
        return journal.coveredPages();
    }

    /**
     * Bytes written to the rollback journal file since the store was opened: the before-images (at most
     * one per page changed per checkpoint interval; those still buffered at a checkpoint are never
     * written) and the journal's headers. With {@link #stats()}' page writes it is everything the store
     * writes.
     */
    public long journalBytesWritten() {
        return journal.bytesWritten();
    }

    /** The number of entries: exact, kept by the writer and checkpointed with the data. */
    public long size() {
        return count;
    }

    /** The metadata blob of the last {@link #checkpoint} (empty if none): what the store reopens with. */
    public byte[] metadata() {
        return metadata.clone();
    }

    /** The page store's counters (buffer hits, evictions, tier traffic) for meters. */
    public PageStoreStats stats() {
        return raw.stats();
    }

    /**
     * An iterator over the entries with {@code from <= key <= to} (both inclusive; a null bound is open),
     * ascending or, with {@code reverse}, descending, as of now (see the class comment). An inverted range
     * ({@code from > to}) is empty. The caller must close it.
     */
    public KvIterator range(byte[] from, byte[] to, boolean reverse) {
        checkOpen();
        SnapshotIterator it = new SnapshotIterator(this, from, to, reverse);
        if (from != null && to != null && Arrays.compareUnsigned(from, to) > 0) {
            it.finish();
            return it;
        }
        writeLock.lock();
        try {
            open.add(it);
        } finally {
            writeLock.unlock();
        }
        return it;
    }

    /** An ascending iterator over the keys that start with {@code prefix} (empty: every key). */
    public KvIterator prefix(byte[] prefix) {
        Objects.requireNonNull(prefix, "prefix");
        return range(prefix.length == 0 ? null : prefix, prefixEnd(prefix), false);
    }

    /** The largest key with {@code prefix} of at most the key bound's length, or null for no upper bound. */
    private byte[] prefixEnd(byte[] prefix) {
        int i = prefix.length - 1;
        while (i >= 0 && prefix[i] == (byte) 0xFF) {
            i--;
        }
        if (i < 0) {
            return null; // 0xFF...: every longer key sorts after it and still has the prefix
        }
        // the keys with the prefix are exactly those >= prefix and < prefix[0..i] + (prefix[i] + 1)
        byte[] end = Arrays.copyOf(prefix, i + 1);
        end[i]++;
        return BTree.below(end, tree.maxKey());
    }

    /** Reads the next chunk for {@code it} under the write lock (so no write slips between chunk and capture). */
    List<KeyValue> readChunk(byte[] from, byte[] before, boolean reverse, int limit) {
        return reverse ? tree.scanDescending(from, before, limit) : tree.scan(from == null ? new byte[0] : from, before, limit);
    }

    ReentrantLock lock() {
        return writeLock;
    }

    void closed(SnapshotIterator it) {
        writeLock.lock();
        try {
            open.remove(it);
            it.release();
        } finally {
            writeLock.unlock();
        }
    }

    // ---------------------------------------------------------------- writes

    /**
     * Sets {@code key} to {@code value}.
     *
     * @return the previous value, or null
     * @throws KeyTooLargeException   if the key exceeds {@link #maxKeySize()} (nothing changed)
     * @throws ValueTooLargeException if the value exceeds {@link #maxValueSize()} (nothing changed)
     */
    public byte[] put(byte[] key, byte[] value) {
        checkEntry(key, Objects.requireNonNull(value, "value"));
        writeLock.lock();
        try {
            checkOpen();
            return putLocked(key, value);
        } finally {
            writeLock.unlock();
        }
    }

    /** Sets {@code key} to {@code value} unless it has a value; returns that value, or null if it was set. */
    public byte[] putIfAbsent(byte[] key, byte[] value) {
        checkEntry(key, Objects.requireNonNull(value, "value"));
        writeLock.lock();
        try {
            checkOpen();
            byte[] current = tree.get(key);
            if (current == null) {
                putLocked(key, value);
            }
            return current;
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Applies {@code entries} in order (a null value deletes), under one lock acquisition: an iterator
     * opened by another thread sees all of them or none.
     *
     * @throws KeyTooLargeException   if a key is too long (checked before anything changes)
     * @throws ValueTooLargeException if a value is too long (checked before anything changes)
     */
    public void putAll(List<KeyValue> entries) {
        for (KeyValue e : entries) {
            if (e.value() == null) {
                Objects.requireNonNull(e.key(), "key");
            } else {
                checkEntry(e.key(), e.value());
            }
        }
        writeLock.lock();
        try {
            checkOpen();
            for (KeyValue e : entries) {
                if (e.value() == null) {
                    deleteLocked(e.key());
                } else {
                    putLocked(e.key(), e.value());
                }
            }
        } finally {
            writeLock.unlock();
        }
    }

    /** Removes {@code key}; returns its value, or null if it had none. */
    public byte[] delete(byte[] key) {
        Objects.requireNonNull(key, "key");
        writeLock.lock();
        try {
            checkOpen();
            return deleteLocked(key);
        } finally {
            writeLock.unlock();
        }
    }

    private byte[] putLocked(byte[] key, byte[] value) {
        capture(key);
        byte[] before = tree.put(key, value, noLog);
        if (before == null) {
            count++;
        }
        return before;
    }

    private byte[] deleteLocked(byte[] key) {
        if (key.length > tree.maxKey()) {
            return null; // no such key can exist
        }
        capture(key);
        byte[] before = tree.delete(key, noLog);
        if (before != null) {
            count--;
        }
        return before;
    }

    /** Hands {@code key}'s before-image to every open iterator that has not read it yet. */
    private void capture(byte[] key) {
        if (open.isEmpty()) {
            return;
        }
        boolean looked = false;
        byte[] before = null;
        for (SnapshotIterator it : open) {
            if (it.wantsBeforeImage(key)) {
                if (!looked) {
                    before = tree.get(key);
                    looked = true;
                }
                it.beforeImage(key, before);
            }
        }
    }

    private void checkEntry(byte[] key, byte[] value) {
        Objects.requireNonNull(key, "key");
        if (key.length > tree.maxKey()) {
            throw new KeyTooLargeException(key.length, tree.maxKey());
        }
        if (value.length > tree.maxValue()) {
            throw new ValueTooLargeException(value.length, tree.maxValue());
        }
    }

    /**
     * Makes every change so far durable together with {@code metadata} and the entry count, atomically:
     * after a crash the store reopens with exactly this state and {@link #metadata()} returns this blob.
     * Free when nothing changed and the metadata is the last checkpoint's (an idle Kafka Streams task).
     *
     * @throws IllegalArgumentException if {@code metadata} exceeds {@link #maxMetadataSize()} (nothing written)
     */
    public void checkpoint(byte[] metadata) {
        Objects.requireNonNull(metadata, "metadata");
        if (metadata.length > maxMetadataSize()) {
            throw new IllegalArgumentException("checkpoint metadata of " + metadata.length + " bytes exceeds the "
                    + maxMetadataSize() + " bytes its page holds: use a larger page size or less metadata");
        }
        writeLock.lock();
        try {
            checkOpen();
            if (journal.isEmpty() && Arrays.equals(metadata, this.metadata)) {
                return; // nothing changed since the last checkpoint: it is this one already
            }
            try (Page p = store.write(CHECKPOINT_PAGE)) {
                writeCheckpointPage(p.payload(), count, metadata);
                p.markDirty(journal.lsn());
            }
            raw.checkpoint();
            journal.reset();
            this.metadata = metadata.clone();
        } finally {
            writeLock.unlock();
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the store is closed");
        }
    }

    /**
     * Closes open iterators and the store <em>without</em> a checkpoint: changes since the last
     * {@link #checkpoint} are rolled back when the store is opened again (its owner's log has them).
     */
    @Override
    public void close() {
        writeLock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            for (SnapshotIterator it : open) {
                it.release();
            }
            open.clear();
        } finally {
            writeLock.unlock();
        }
        // the page store first: pages it writes back on close still force the journal ahead of them
        closeAll(raw, journal, fileLock);
    }

    private static void closeAll(AutoCloseable... resources) {
        RuntimeException failure = null;
        for (AutoCloseable r : resources) {
            if (r == null) {
                continue;
            }
            try {
                r.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = e instanceof RuntimeException re ? re : new KvException("cannot close " + r, e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
