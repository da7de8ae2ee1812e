package io.most.kv;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * A transaction of a {@link KvDatabase}, from {@link KvDatabase#begin()}: strict two-phase locking on
 * keys (shared for reads, exclusive for writes, all held until commit or abort), so point operations
 * are serializable. Scans lock every key they return and wait for keys in their range that others
 * write or delete, but do not lock gaps: a concurrent insert into a scanned range (a phantom) is possible.
 *
 * <p>Not thread-safe: one thread uses a transaction at a time. Use it in try-with-resources: closing an
 * uncommitted transaction aborts it.
 *
 * <pre>{@code
 * try (Transaction tx = db.begin()) {
 *     byte[] balance = tx.get(from);
 *     tx.put(from, debit(balance));
 *     tx.put(to, credit(tx.get(to)));
 *     tx.commit();
 * }
 * }</pre>
 */
public final class Transaction implements AutoCloseable {
    private enum State { ACTIVE, COMMITTED, ABORTED }

    /**
     * Enough to undo one change at runtime: its LSN, the key and the before-image, of the whole value
     * ({@code offset} {@link #WHOLE}; null if the key was absent) or of the bytes an in-place update
     * changed at {@code offset} (the same bytes its log record holds for recovery's undo).
     */
    private record Undo(long lsn, byte[] key, int offset, byte[] before) {
    }

    private static final int WHOLE = -1;

    /** The empty body of commit and end records. */
    private static final byte[] NO_BYTES = new byte[0];

    private final KvDatabase db;
    final TxnState log;
    final LockManager.Txn locks;
    private final List<Undo> undo = new ArrayList<>();
    private State state = State.ACTIVE;

    Transaction(KvDatabase db, long id) {
        this.db = db;
        this.log = new TxnState(id);
        this.locks = new LockManager.Txn(id);
    }

    /** This transaction's id (unique within the log). */
    public long id() {
        return log.id;
    }

    /** The value of {@code key}, or null if absent; takes a shared lock on the key. */
    public byte[] get(byte[] key) {
        checkActive();
        db.checkKey(key);
        db.locks.lock(locks, key, LockManager.Mode.SHARED);
        return db.tree.get(key);
    }

    /**
     * Sets {@code key} to {@code value}; takes an exclusive lock on the key.
     *
     * @throws KeyTooLargeException   if the key is longer than {@link KvDatabase#maxKeySize()}
     * @throws ValueTooLargeException if the value is longer than {@link KvDatabase#maxValueSize()}
     */
    public void put(byte[] key, byte[] value) {
        checkActive();
        db.checkKey(key);
        db.checkValue(value);
        db.locks.lock(locks, key, LockManager.Mode.EXCLUSIVE);
        db.beginChange();
        try {
            db.tree.put(key, value, this::logUpdate);
        } finally {
            db.endChange();
        }
    }

    /**
     * Overwrites bytes {@code [offset, offset + bytes.length)} of the value of {@code key} in place (the
     * value keeps its length): one latched leaf and one log record, where a get and a put would descend
     * twice and copy the value twice. Takes an exclusive lock on the key.
     *
     * @return false if there is no such key (nothing changed)
     * @throws IllegalArgumentException if the range is outside the value
     */
    public boolean update(byte[] key, int offset, byte[] bytes) {
        checkActive();
        db.checkKey(key);
        Objects.requireNonNull(bytes, "bytes");
        db.locks.lock(locks, key, LockManager.Mode.EXCLUSIVE);
        db.beginChange();
        try {
            return db.tree.update(key, offset, bytes, this::logRangeUpdate);
        } finally {
            db.endChange();
        }
    }

    /** Removes {@code key} if present; returns whether it was. Takes an exclusive lock on the key. */
    public boolean delete(byte[] key) {
        checkActive();
        db.checkKey(key);
        db.locks.lock(locks, key, LockManager.Mode.EXCLUSIVE);
        db.beginChange();
        try {
            return db.tree.delete(key, this::logUpdate) != null;
        } finally {
            db.endChange();
        }
    }

    /**
     * Up to {@code limit} entries with keys from {@code from} (inclusive) to {@code to} (exclusive; null
     * for no bound), ascending. Each returned key is locked shared.
     */
    public List<KeyValue> scan(byte[] from, byte[] to, int limit) {
        checkActive();
        List<KeyValue> out = new ArrayList<>();
        if (!checkScan(db, from, to, limit)) {
            return out;
        }
        byte[] cursor = from;
        while (out.size() < limit) {
            int want = limit - out.size();
            List<KeyValue> batch = db.tree.scan(cursor, to, want);
            boolean exhausted = batch.size() < want;
            byte[] upper = exhausted ? to : successor(batch.getLast().key());
            TreeSet<byte[]> keys = new TreeSet<>(Arrays::compareUnsigned);
            for (KeyValue kv : batch) {
                keys.add(kv.key());
            }
            // keys others write or deleted are not (all) in the tree: wait for their outcome too
            keys.addAll(db.locks.exclusiveKeys(cursor, upper, locks));
            readLocked(new ArrayList<>(keys), limit, out);
            if (exhausted) {
                break;
            }
            cursor = upper;
        }
        return out;
    }

    /**
     * Checks a scan's arguments; false if its range [from, to) is empty.
     *
     * @throws KeyTooLargeException     if {@code from} is longer than the database's longest key
     * @throws IllegalArgumentException if {@code limit} is negative
     */
    static boolean checkScan(KvDatabase db, byte[] from, byte[] to, int limit) {
        db.checkKey(from);
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative, got " + limit);
        }
        return to == null || Arrays.compareUnsigned(from, to) < 0;
    }

    /**
     * Locks {@code keys} (ascending) shared in order and adds the present ones with their values to
     * {@code out}, up to {@code limit} rows: locks as many keys as the rows still wanted, then reads them
     * with one scan of the tree between the first and last of them (their values are committed now, as
     * nobody else can hold them exclusively), and locks further keys only if some were gone. A lookup per
     * key would descend from the root for every row, where this reads each leaf once more (buffered,
     * as the scan before the locks just read it).
     */
    private void readLocked(List<byte[]> keys, int limit, List<KeyValue> out) {
        int next = 0;
        while (next < keys.size() && out.size() < limit) {
            int end = next + Math.min(keys.size() - next, limit - out.size());
            for (int i = next; i < end; i++) {
                db.locks.lock(locks, keys.get(i), LockManager.Mode.SHARED);
            }
            // the range is bounded by the last locked key: keys inserted meanwhile (phantoms, unlocked) are skipped
            List<KeyValue> read = db.tree.scan(keys.get(next), successor(keys.get(end - 1)), Integer.MAX_VALUE);
            int k = next;
            for (KeyValue kv : read) {
                while (k < end && Arrays.compareUnsigned(keys.get(k), kv.key()) < 0) {
                    k++; // locked, but gone: deleted and committed before the lock was granted
                }
                if (k < end && Arrays.equals(keys.get(k), kv.key())) {
                    out.add(kv);
                    k++;
                }
            }
            next = end;
        }
    }

    private static byte[] successor(byte[] key) {
        return Arrays.copyOf(key, key.length + 1);
    }

    private long logUpdate(long pageId, byte[] key, byte[] after, byte[] before) {
        long lsn = db.wal.appendChange(LogRecord.UPDATE, log, new LogRecord.KeyChange(pageId, key, after, before, 0));
        undo.add(new Undo(lsn, key, WHOLE, before));
        return lsn;
    }

    /** Logs an in-place update from the leaf; keeps the changed bytes' before-image for undo. */
    private long logRangeUpdate(long pageId, byte[] key, MemorySegment page, int valueOffset, int offset,
                                byte[] bytes) {
        long lsn = db.wal.appendChange(LogRecord.RANGE_UPDATE, log,
                new LogRecord.RangeChange(pageId, key, page, valueOffset, offset, bytes, true, 0));
        byte[] before = new byte[bytes.length];
        MemorySegment.copy(page, ValueLayout.JAVA_BYTE, valueOffset + offset, before, 0, bytes.length);
        undo.add(new Undo(lsn, key, offset, before));
        return lsn;
    }

    /**
     * Makes the transaction's changes durable (group commit; at the next log force if the database was
     * opened with {@code syncCommit(false)}) and releases its locks.
     */
    public void commit() {
        checkActive();
        try {
            if (!undo.isEmpty()) {
                long lsn = db.wal.append(LogRecord.COMMIT, log, NO_BYTES);
                if (db.syncCommit) {
                    db.wal.force(lsn);
                } else {
                    db.wal.forceIfBuffered();
                }
            }
            state = State.COMMITTED;
        } finally {
            if (state == State.COMMITTED) {
                finish();
            }
        }
        db.maybeCheckpoint();
    }

    /**
     * Rolls back every change, newest first, logging a compensation record for each, and releases the
     * locks. Idempotent once the transaction has ended. If rolling back fails (a log or device error),
     * the transaction keeps its locks, so nobody reads its uncommitted values, and stays registered, so
     * checkpoints keep its log: reopen the database, whose recovery finishes the rollback.
     */
    public void abort() {
        if (state != State.ACTIVE) {
            return;
        }
        state = State.ABORTED;
        for (int i = undo.size() - 1; i >= 0; i--) {
            Undo u = undo.get(i);
            long undoNext = i == 0 ? 0 : undo.get(i - 1).lsn();
            if (u.offset() == WHOLE) {
                db.compensate(log, u.key(), u.before(), undoNext);
            } else {
                db.compensateRange(log, u.key(), u.offset(), u.before(), undoNext);
            }
        }
        if (!undo.isEmpty()) {
            db.wal.append(LogRecord.END, log, NO_BYTES);
        }
        finish();
    }

    private void finish() {
        db.locks.releaseAll(locks);
        db.ended(this);
    }

    /** Whether the transaction has neither committed nor aborted. */
    public boolean isActive() {
        return state == State.ACTIVE;
    }

    private void checkActive() {
        if (state != State.ACTIVE) {
            throw new IllegalStateException("transaction " + log.id + " is " + state.name().toLowerCase()
                    + "; begin a new one");
        }
    }

    /** Aborts the transaction unless it committed. */
    @Override
    public void close() {
        abort();
    }
}
