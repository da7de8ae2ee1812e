package io.most.kv;

import io.most.Page;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.device.DirectFileDevice;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A transactional key-value database over a MOST {@link PageStore}: a B+tree of byte-array keys and
 * values, strict two-phase key locking, a write-ahead log with group commit, and ARIES-style recovery.
 *
 * <pre>{@code
 * try (KvDatabase db = KvDatabase.open(KvOptions.inDirectory(dir).pmBytes(64L << 20).build())) {
 *     db.put(key, value);                       // an auto-committed one-operation transaction
 *     try (Transaction tx = db.begin()) {
 *         tx.put(a, tx.get(b));
 *         tx.commit();
 *     }
 *     List<KeyValue> rows = db.scan(from, to, 100);
 *     db.checkpoint();                          // bounds recovery time and log size
 * }
 * }</pre>
 *
 * <p>Thread-safe: any number of threads may run transactions and auto-commit operations at once.
 * Keys compare as unsigned bytes. Key and value sizes are bounded by the page size
 * ({@link #maxKeySize()}, {@link #maxValueSize()}).
 *
 * <p>Why this class is large: it is the database's whole public surface (open and recovery, auto-committed
 * operations, transactions, scans, checkpoint, close), each with its argument checks and javadoc; the
 * mechanisms behind it are their own classes (BTree, LockManager, WriteAheadLog, Recovery, Transaction).
 */
public final class KvDatabase implements AutoCloseable {
    /**
     * Scans without locks before one in a transaction: a writer that came and went during the first
     * (its lock held for one short change) is most likely gone for the second, which finds the leaves
     * the first loaded still buffered; a writer that stays sends the scan to the locks at once.
     */
    private static final int OPTIMISTIC_SCANS = 2;

    private final DatabaseLock lock;
    final PageStore store;
    final WriteAheadLog wal;
    final BTree tree;
    final LockManager locks;
    private final UUID dbId;
    private final Map<Long, Transaction> active = new ConcurrentHashMap<>();
    private final AtomicLong nextTxId;
    private final long checkpointLogBytes;
    final boolean syncCommit;
    /**
     * Held shared by each tree change from its first log record until its pages are released (and so
     * marked dirty), exclusively by a checkpoint while it reads its redo start: every change logged
     * before that point is then in a dirty page the checkpoint flushes, never in a page it skips.
     */
    private final ReentrantReadWriteLock changes = new ReentrantReadWriteLock();
    private final Object checkpointLock = new Object();
    private final AtomicBoolean checkpointRunning = new AtomicBoolean();
    private volatile long lastCheckpointLsn;
    private volatile boolean closed;
    private final Recovery.Outcome recovered;

    private KvDatabase(DatabaseLock lock, PageStore store, WriteAheadLog wal, UUID dbId, int maxKey,
                       KvOptions options, List<LogRecord> log) {
        this.lock = lock;
        this.store = store;
        this.wal = wal;
        this.dbId = dbId;
        this.tree = new BTree(store, wal, maxKey);
        tree.scanPrefetch(options.scanPrefetchLeaves);
        this.locks = new LockManager(options.lockTimeout);
        this.checkpointLogBytes = options.checkpointLogBytes;
        this.syncCommit = options.syncCommit;
        this.recovered = new Recovery(store, wal, tree).run(log);
        this.nextTxId = new AtomicLong(recovered.nextTxId());
    }

    /**
     * Opens the database, creating it if the page store is empty, or recovering it after a crash (redo,
     * then undo of unfinished transactions, then a checkpoint). A torn log tail is cut off.
     *
     * @throws DatabaseInUseException if the database is open already, in this process or another (its
     *                                lock file {@code <log>.lock} is held; nothing read or changed)
     * @throws LogMismatchException if the log belongs to another database or is missing (nothing changed)
     * @throws CorruptLogException  if the log is damaged before its end (nothing changed)
     * @throws OptionsMismatchException if {@link KvOptions.Builder#maxKeySize} differs from the bound the
     *                                  database was created with (nothing changed)
     * @throws IllegalArgumentException if {@link KvOptions.Builder#maxKeySize} is too large for the page
     *                                  size (the store is left unformatted)
     */
    public static KvDatabase open(KvOptions options) {
        Objects.requireNonNull(options, "options");
        LogForcer forcer = new LogForcer();
        PageStoreConfig config = storeConfig(options).walHook(forcer).build();
        // before the page store recovers anything: a second engine must not touch the files at all
        DatabaseLock lock;
        try {
            lock = DatabaseLock.acquire(options.logPath);
        } catch (RuntimeException | Error e) {
            config.blockDevice().close(); // PageStore.open would have owned it
            throw e;
        }
        PageStore store;
        try {
            store = PageStore.open(config);
        } catch (RuntimeException | Error e) {
            lock.close();
            throw e;
        }
        WriteAheadLog wal = null;
        try {
            UUID dbId;
            int maxKey;
            List<LogRecord> records = List.of();
            Path logPath = options.logPath;
            if (!isFormatted(store)) {
                int payload = store.payloadSize();
                maxKey = options.maxKeySize == 0 ? BTree.defaultMaxKeySize(payload)
                        : BTree.checkMaxKey(options.maxKeySize, payload);
                if (Files.exists(logPath)) {
                    throw new LogMismatchException("the page store holds no database but log " + logPath
                            + " exists (database " + WriteAheadLog.readDbId(logPath)
                            + "): it belongs to another store; nothing was changed");
                }
                dbId = UUID.randomUUID();
                BTree.format(store, dbId, maxKey);
                store.checkpoint();
                wal = WriteAheadLog.create(logPath, dbId);
            } else {
                long metaLsn;
                try (Page meta = store.read(MetaPage.PAGE)) {
                    String format = MetaPage.otherFormat(meta.payload());
                    if (format != null) {
                        throw new LogMismatchException("the page store holds a key-value database of format " + format
                                + "; this build reads formats 01 and 02 (nothing was changed)");
                    }
                    if (!MetaPage.isMeta(meta.payload())) {
                        throw new LogMismatchException("the page store does not hold a key-value database (page 0 is"
                                + " not its meta page)");
                    }
                    dbId = MetaPage.dbId(meta.payload());
                    maxKey = MetaPage.maxKey(meta.payload(), store.payloadSize());
                    metaLsn = meta.lsn();
                    if (options.maxKeySize != 0 && options.maxKeySize != maxKey) {
                        throw new OptionsMismatchException("database " + dbId + " was created with max key size "
                                + maxKey + " bytes, the options ask for " + options.maxKeySize
                                + "; the bound is fixed at creation (nothing was changed)");
                    }
                }
                if (Files.exists(logPath)) {
                    WriteAheadLog.Scan scan = WriteAheadLog.open(logPath, dbId);
                    wal = scan.log();
                    records = scan.records();
                } else if (metaLsn == 0 && rootLsn(store) == 0) {
                    wal = WriteAheadLog.create(logPath, dbId); // created, then crashed before the log existed
                } else {
                    throw new LogMismatchException("log " + logPath + " of database " + dbId
                            + " is missing; restore it (nothing was changed)");
                }
            }
            forcer.wal = wal;
            KvDatabase db = new KvDatabase(lock, store, wal, dbId, maxKey, options, records);
            db.checkpoint();
            return db;
        } catch (RuntimeException | Error e) {
            try {
                if (wal != null) {
                    wal.close();
                }
                store.close();
            } finally {
                lock.close();
            }
            throw e;
        }
    }

    /**
     * Whether the store holds a database: page 0 allocated and written. A page 0 that is allocated but
     * never written (all zeros) is a format interrupted by a crash, which the next open redoes.
     */
    private static boolean isFormatted(PageStore store) {
        if (!store.isAllocated(MetaPage.PAGE)) {
            return false;
        }
        try (Page meta = store.read(MetaPage.PAGE)) {
            return Node.type(meta.payload()) != Node.FORMATLESS;
        }
    }

    private static long rootLsn(PageStore store) {
        try (Page root = store.read(MetaPage.ROOT)) {
            return root.lsn();
        }
    }

    static PageStoreConfig.Builder storeConfig(KvOptions o) {
        if (o.store != null) {
            return o.store;
        }
        try {
            Files.createDirectories(o.directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create database directory " + o.directory, e);
        }
        PageStoreConfig.Builder b = PageStoreConfig.builder()
                .pageSize(o.pageSize)
                .dramBytes(o.dramBytes)
                .blockDevice(DirectFileDevice.open(o.directory.resolve("data.most"), o.deviceBytes));
        if (o.pmBytes > 0) {
            b.pm(o.directory.resolve("pm.most"), o.pmBytes);
        }
        return b;
    }

    /** The store's WAL hook: forces the log before a page leaves DRAM (no log yet: nothing to force). */
    private static final class LogForcer implements io.most.WalHook {
        volatile WriteAheadLog wal;

        @Override
        public void flushUpTo(long lsn) {
            WriteAheadLog w = wal;
            if (w != null) {
                w.force(lsn);
            }
        }
    }

    /** This database's id, also in the log header. */
    public UUID id() {
        return dbId;
    }

    /**
     * The longest key accepted: {@link KvOptions.Builder#maxKeySize} when the database was created, by
     * default a sixteenth of the page payload (at most 1 KiB).
     */
    public int maxKeySize() {
        return tree.maxKey();
    }

    /**
     * The longest value accepted, derived from the page size and {@link #maxKeySize()}: three maximal
     * entries and four maximal keys (fences) fit a page, so a split always makes room for any entry.
     */
    public int maxValueSize() {
        return tree.maxValue();
    }

    /** Starts a transaction. */
    public Transaction begin() {
        checkOpen();
        Transaction tx = new Transaction(this, nextTxId.getAndIncrement());
        active.put(tx.id(), tx);
        return tx;
    }

    /**
     * The value of {@code key} or null: a committed value, as a one-operation transaction would read it.
     * While nobody holds an exclusive lock in the key's stripe of the lock table it reads without a
     * transaction or a lock.
     */
    public byte[] get(byte[] key) {
        checkKey(key);
        // no exclusive lock in the key's stripe from before the read to after it: the key held committed
        // data, so the shared lock a transaction would take could not have waited for anyone
        int stripe = LockManager.stripeIndex(key);
        long stamp = locks.readStamp(stripe);
        if (stamp >= 0) {
            byte[] value = tree.get(key);
            if (locks.validate(stripe, stamp)) {
                return value;
            }
        }
        try (Transaction tx = begin()) {
            byte[] v = tx.get(key);
            tx.commit();
            return v;
        }
    }

    /**
     * {@link #get(byte[])} into a caller's buffer: copies the committed value of {@code key} into
     * {@code into} (as much of it as fits). Read without a lock (as {@link #get(byte[])}), it allocates
     * nothing.
     *
     * @return the value's length (larger than {@code into.length} if it did not fit), or -1 if absent
     */
    public int get(byte[] key, byte[] into) {
        checkKey(key);
        Objects.requireNonNull(into, "into");
        int stripe = LockManager.stripeIndex(key);
        long stamp = locks.readStamp(stripe);
        if (stamp >= 0) {
            int length = tree.get(key, into);
            if (locks.validate(stripe, stamp)) {
                return length;
            }
        }
        byte[] value = get(key);
        if (value == null) {
            return -1;
        }
        System.arraycopy(value, 0, into, 0, Math.min(value.length, into.length));
        return value.length;
    }

    /**
     * {@link Transaction#update} in a one-operation transaction: overwrites bytes {@code [offset,
     * offset + bytes.length)} of the value of {@code key} in place.
     *
     * @return false if there is no such key (nothing changed)
     * @throws IllegalArgumentException if the range is outside the value
     */
    public boolean update(byte[] key, int offset, byte[] bytes) {
        try (Transaction tx = begin()) {
            boolean found = tx.update(key, offset, bytes);
            tx.commit();
            return found;
        }
    }

    /** Sets {@code key} to {@code value} in a one-operation transaction (durable when it returns). */
    public void put(byte[] key, byte[] value) {
        try (Transaction tx = begin()) {
            tx.put(key, value);
            tx.commit();
        }
    }

    /** Removes {@code key} in a one-operation transaction; returns whether it was present. */
    public boolean delete(byte[] key) {
        try (Transaction tx = begin()) {
            boolean found = tx.delete(key);
            tx.commit();
            return found;
        }
    }

    /**
     * {@link Transaction#scan} in a one-operation transaction: the committed entries a transaction
     * holding shared locks on its keys would return. While nobody holds an exclusive lock anywhere in
     * the lock table, from before the tree's scan to after it, it reads without a transaction or locks.
     */
    public List<KeyValue> scan(byte[] from, byte[] to, int limit) {
        checkOpen();
        // as get: no exclusive lock in any stripe during the scan means no key of the range changed and
        // none held uncommitted data (nor was deleted by a transaction that may still abort), so the
        // locks the transaction would take could not have waited. The transaction's lock-table entry
        // per row, its key set and its lookup per row took half of the CPU of YCSB-E's scans.
        if (!Transaction.checkScan(this, from, to, limit)) {
            return new ArrayList<>();
        }
        for (int attempt = 0; attempt < OPTIMISTIC_SCANS; attempt++) {
            long[] stamps = locks.readStamps();
            if (stamps == null) {
                break; // a writer holds a lock now: its keys may hold uncommitted data, wait for it
            }
            List<KeyValue> rows = tree.scan(from, to, limit);
            if (locks.validateAll(stamps)) {
                return rows;
            }
        }
        try (Transaction tx = begin()) {
            List<KeyValue> rows = tx.scan(from, to, limit);
            tx.commit();
            return rows;
        }
    }

    /**
     * Makes every page durable ({@link PageStore#checkpoint()}), then logs a checkpoint record: recovery
     * redoes only from the log position taken before the pages were flushed, and the log before that
     * (and before the first record of any running transaction) is dropped.
     */
    public void checkpoint() {
        checkOpen();
        synchronized (checkpointLock) {
            long redoStart;
            changes.writeLock().lock();
            try {
                redoStart = wal.endLsn();
            } finally {
                changes.writeLock().unlock();
            }
            store.checkpoint();
            wal.checkpoint(redoStart, nextTxId.get(), active.values().stream().map(t -> t.log).toList());
            lastCheckpointLsn = redoStart;
        }
    }

    /** Starts a background checkpoint when the log grew past the configured size. */
    void maybeCheckpoint() {
        if (checkpointLogBytes > 0 && wal.endLsn() - lastCheckpointLsn > checkpointLogBytes && !closed
                && checkpointRunning.compareAndSet(false, true)) {
            Thread.ofPlatform().name("kv-checkpoint").daemon().start(() -> {
                try {
                    if (!closed) {
                        checkpoint();
                    }
                } catch (RuntimeException e) {
                    if (!closed) {
                        System.getLogger(KvDatabase.class.getName()).log(System.Logger.Level.WARNING,
                                "background checkpoint failed", e);
                    }
                } finally {
                    checkpointRunning.set(false);
                }
            });
        }
    }

    /** Reverts one change of {@code tx} through the tree, logging a compensation record. */
    void compensate(TxnState tx, byte[] key, byte[] before, long undoNext) {
        beginChange();
        try {
            compensate(tree, wal, tx, key, before, undoNext);
        } finally {
            endChange();
        }
    }

    /** Reverts one in-place update of {@code tx} through the tree, logging a compensation record. */
    void compensateRange(TxnState tx, byte[] key, int offset, byte[] before, long undoNext) {
        beginChange();
        try {
            compensateRange(tree, wal, tx, key, offset, before, undoNext);
        } finally {
            endChange();
        }
    }

    /** Before one tree change's first log record (see {@link #changes}); pair with {@link #endChange}. */
    void beginChange() {
        changes.readLock().lock();
    }

    /** After the change's pages are released. */
    void endChange() {
        changes.readLock().unlock();
    }

    static void compensate(BTree tree, WriteAheadLog wal, TxnState tx, byte[] key, byte[] before, long undoNext) {
        BTree.KeyChangeLogger clr = (pageId, k, after, current) -> wal.appendChange(LogRecord.COMPENSATION, tx,
                new LogRecord.KeyChange(pageId, k, after, null, undoNext));
        if (before == null) {
            tree.delete(key, clr);
        } else {
            tree.put(key, before, clr);
        }
    }

    /**
     * Undoes an in-place update: writes {@code before} back at {@code offset} of the key's value, logged
     * as a {@link LogRecord#RANGE_COMPENSATION} (those bytes after the undo).
     */
    static void compensateRange(BTree tree, WriteAheadLog wal, TxnState tx, byte[] key, int offset, byte[] before,
                                long undoNext) {
        boolean found = tree.update(key, offset, before, (pageId, k, page, valueOffset, at, bytes) ->
                wal.appendChange(LogRecord.RANGE_COMPENSATION, tx,
                        new LogRecord.RangeChange(pageId, k, page, valueOffset, at, bytes, false, undoNext)));
        if (!found) {
            // the transaction holds the key's exclusive lock (or, in recovery, history was repeated): it is there
            throw new IllegalStateException("undo of an update of a key that is gone (transaction " + tx.id + ")");
        }
    }

    void ended(Transaction tx) {
        active.remove(tx.id());
    }

    void checkKey(byte[] key) {
        Objects.requireNonNull(key, "key");
        if (key.length > tree.maxKey()) {
            throw new KeyTooLargeException(key.length, tree.maxKey());
        }
    }

    void checkValue(byte[] value) {
        Objects.requireNonNull(value, "value");
        if (value.length > tree.maxValue()) {
            throw new ValueTooLargeException(value.length, tree.maxValue());
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("database " + dbId + " is closed");
        }
    }

    /**
     * Checks the tree's structural invariants (sorted keys within fences, separators matching child
     * fences, all leaves at one depth, no empty non-root node, an intact leaf chain, every allocated page
     * in the tree or on the free list) and returns how many entries it holds. Reads every page: meant for
     * tests and offline checks, with no writer running.
     *
     * @throws IllegalStateException naming the first broken invariant
     */
    public long verify() {
        checkOpen();
        return TreeVerifier.check(store).size();
    }

    /** Every entry, read page by page by {@link #verify()}'s walk (tests; no writer may run). */
    List<KeyValue> verifiedEntries() {
        return TreeVerifier.check(store);
    }

    /** What the last open's recovery did (tests). */
    Recovery.Outcome recoveryOutcome() {
        return recovered;
    }

    /**
     * Checkpoints and closes the log and the page store. Transactions still running are left to
     * recovery: the next open rolls them back.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        synchronized (checkpointLock) {
            try {
                checkpoint();
            } finally {
                closed = true;
                try {
                    wal.close();
                } finally {
                    try {
                        store.close();
                    } finally {
                        lock.close();
                    }
                }
            }
        }
    }
}
