package io.most.examples.oltp;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Shared and exclusive key locks for strict two-phase locking. A request that would wait is first
 * checked for a deadlock (a cycle in the wait-for graph through the holders of the lock it waits for);
 * a deadlock, or a wait longer than the timeout, fails the requester with
 * {@link TransactionConflictException}. Keys are kept in order, so a scan can find the keys in its range
 * that other transactions hold exclusively (including keys they deleted).
 *
 * <p>One monitor guards the table: lock operations are short, and one lock keeps deadlock detection
 * simple and exact.
 */
final class LockManager {
    /** Lock modes. */
    enum Mode { SHARED, EXCLUSIVE }

    private static final class Entry {
        final Map<Txn, Mode> holders = new HashMap<>(4);
        int waiters;
    }

    /** A lock owner: a transaction, and what it is waiting for (for deadlock detection). */
    static final class Txn {
        final long id;
        final List<byte[]> held = new ArrayList<>();
        Entry waitingFor;

        Txn(long id) {
            this.id = id;
        }
    }

    private final TreeMap<byte[], Entry> table = new TreeMap<>(Arrays::compareUnsigned);
    private final long timeoutNanos;

    LockManager(Duration timeout) {
        this.timeoutNanos = timeout.toNanos();
    }

    /** Acquires (or upgrades to) {@code mode} on {@code key} for {@code tx}, waiting if needed. */
    synchronized void lock(Txn tx, byte[] key, Mode mode) {
        Entry e = table.get(key);
        if (e == null) {
            e = new Entry();
            table.put(key.clone(), e);
        }
        Mode held = e.holders.get(tx);
        if (held == Mode.EXCLUSIVE || held == mode) {
            return;
        }
        long deadline = System.nanoTime() + timeoutNanos;
        while (!compatible(e, tx, mode)) {
            if (deadlocks(tx, e)) {
                throw new TransactionConflictException("transaction " + tx.id + " would deadlock on key "
                        + printable(key) + " (" + mode + "); abort and retry it");
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new TransactionConflictException("transaction " + tx.id + " waited "
                        + Duration.ofNanos(timeoutNanos) + " for " + mode + " lock on key " + printable(key)
                        + "; abort and retry it");
            }
            tx.waitingFor = e;
            e.waiters++;
            try {
                wait(Math.max(1, left / 1_000_000));
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                throw new TransactionConflictException("transaction " + tx.id + " was interrupted waiting for a lock");
            } finally {
                e.waiters--;
                tx.waitingFor = null;
            }
        }
        if (held == null) {
            tx.held.add(key.clone());
        }
        e.holders.put(tx, mode);
    }

    private static boolean compatible(Entry e, Txn tx, Mode mode) {
        for (Map.Entry<Txn, Mode> h : e.holders.entrySet()) {
            if (h.getKey() != tx && (mode == Mode.EXCLUSIVE || h.getValue() == Mode.EXCLUSIVE)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether waiting on {@code e} closes a cycle back to {@code tx} in the wait-for graph. Conservative:
     * a waiter is taken to wait for every holder of its lock, so a rare false positive aborts a
     * transaction that could have waited.
     */
    private static boolean deadlocks(Txn tx, Entry e) {
        Set<Txn> seen = new HashSet<>();
        ArrayDeque<Txn> frontier = new ArrayDeque<>();
        for (Txn h : e.holders.keySet()) {
            if (h != tx) {
                frontier.add(h);
            }
        }
        while (!frontier.isEmpty()) {
            Txn t = frontier.poll();
            if (!seen.add(t) || t.waitingFor == null) {
                continue;
            }
            for (Txn next : t.waitingFor.holders.keySet()) {
                if (next == tx) {
                    return true;
                }
                if (next != t) {
                    frontier.add(next);
                }
            }
        }
        return false;
    }

    /** Whether {@code tx} is waiting for a lock. */
    synchronized boolean isWaiting(Txn tx) {
        return tx.waitingFor != null;
    }

    /** Releases every lock of {@code tx} (at commit or after abort). */
    synchronized void releaseAll(Txn tx) {
        for (byte[] key : tx.held) {
            Entry e = table.get(key);
            if (e != null) {
                e.holders.remove(tx);
                if (e.holders.isEmpty() && e.waiters == 0) {
                    table.remove(key);
                }
            }
        }
        tx.held.clear();
        notifyAll();
    }

    /** Keys in [from, to) (to null = unbounded) that transactions other than {@code tx} hold exclusively. */
    synchronized List<byte[]> exclusiveKeys(byte[] from, byte[] to, Txn tx) {
        List<byte[]> out = new ArrayList<>();
        if (to != null && Arrays.compareUnsigned(from, to) >= 0) {
            return out;
        }
        var range = to == null ? table.tailMap(from, true) : table.subMap(from, true, to, false);
        for (Map.Entry<byte[], Entry> en : range.entrySet()) {
            for (Map.Entry<Txn, Mode> h : en.getValue().holders.entrySet()) {
                if (h.getKey() != tx && h.getValue() == Mode.EXCLUSIVE) {
                    out.add(en.getKey().clone());
                    break;
                }
            }
        }
        return out;
    }

    static String printable(byte[] key) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(key.length, 32); i++) {
            int b = key[i] & 0xFF;
            sb.append(b >= 0x20 && b < 0x7F ? String.valueOf((char) b) : String.format("\\x%02x", b));
        }
        return sb.append(key.length > 32 ? "..." : "").toString();
    }
}
