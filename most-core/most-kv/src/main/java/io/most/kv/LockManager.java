package io.most.kv;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
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
 * <p><b>Striped.</b> The table is {@value #STRIPES} ordered maps chosen by the key's hash, each behind
 * its own monitor, so transactions on different keys rarely meet (one monitor for all keys was the
 * engine's bottleneck for updates). A waiter waits on its key's stripe, and a release wakes the stripes
 * of the keys it releases. Deadlock detection walks other stripes' entries without their monitors: a
 * waiter publishes what it waits for ({@link Txn#waitingFor}, volatile) <em>before</em> it looks for a
 * cycle, and an entry's holders are an immutable array replaced under the monitor and published
 * through a volatile field, so of two transactions that close a cycle at once at
 * least one sees the other's wait and aborts (both may: a conservative false positive, as before).
 */
final class LockManager {
    /** Lock modes. */
    enum Mode { SHARED, EXCLUSIVE }

    static final int STRIPES = 64;

    /** One holder of a key's lock. */
    private record Holder(Txn txn, Mode mode) {
    }

    private static final Holder[] NONE = new Holder[0];

    /**
     * One key's lock: its holders (usually one; an immutable array, replaced under the stripe's monitor
     * and read without it by deadlock detection) and how many wait for it (under the monitor).
     */
    private static final class Entry {
        volatile Holder[] holders = NONE;
        int waiters;

        Mode modeOf(Txn tx) {
            for (Holder h : holders) {
                if (h.txn == tx) {
                    return h.mode;
                }
            }
            return null;
        }

        void grant(Txn tx, Mode mode) {
            Holder[] now = holders;
            for (int i = 0; i < now.length; i++) {
                if (now[i].txn == tx) {
                    Holder[] next = now.clone();
                    next[i] = new Holder(tx, mode);
                    holders = next;
                    return;
                }
            }
            Holder[] next = Arrays.copyOf(now, now.length + 1);
            next[now.length] = new Holder(tx, mode);
            holders = next;
        }

        /** Removes {@code tx}'s hold; returns the mode it held, or null. */
        Mode release(Txn tx) {
            Holder[] now = holders;
            for (int i = 0; i < now.length; i++) {
                if (now[i].txn == tx) {
                    Holder[] next = new Holder[now.length - 1];
                    System.arraycopy(now, 0, next, 0, i);
                    System.arraycopy(now, i + 1, next, i, now.length - i - 1);
                    holders = next.length == 0 ? NONE : next;
                    return now[i].mode;
                }
            }
            return null;
        }

        boolean heldExclusivelyByOtherThan(Txn tx) {
            for (Holder h : holders) {
                if (h.txn != tx && h.mode == Mode.EXCLUSIVE) {
                    return true;
                }
            }
            return false;
        }
    }

    /** A lock owner: a transaction, and what it is waiting for (for deadlock detection). */
    static final class Txn {
        final long id;
        final List<byte[]> held = new ArrayList<>();
        volatile Entry waitingFor;

        Txn(long id) {
            this.id = id;
        }
    }

    /**
     * One stripe of the table: its monitor guards its map and its entries' waiter counts. Its two
     * counters of exclusive locks are written under the monitor and read without it by
     * {@link #readStamp} / {@link #validate}.
     */
    private static final class Stripe {
        final TreeMap<byte[], Entry> table = new TreeMap<>(Arrays::compareUnsigned);
        /** Exclusive locks held in this stripe now. */
        volatile int exclusiveHeld;
        /** Exclusive locks ever granted in this stripe (upgrades included). */
        volatile long exclusiveGrants;
    }

    private final Stripe[] stripes = new Stripe[STRIPES];
    private final long timeoutNanos;

    LockManager(Duration timeout) {
        this.timeoutNanos = timeout.toNanos();
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Stripe();
        }
    }

    private Stripe stripeOf(byte[] key) {
        return stripes[stripeIndex(key)];
    }

    /** The stripe of {@code key}, for {@link #readStamp} and {@link #validate}. */
    static int stripeIndex(byte[] key) {
        return (Arrays.hashCode(key) & 0x7fffffff) % STRIPES;
    }

    /**
     * Starts a read without a lock of a key in stripe {@code stripe}: a stamp to {@link #validate}
     * after the read, or -1 if someone holds an exclusive lock in the stripe now (then take a lock).
     */
    long readStamp(int stripe) {
        Stripe st = stripes[stripe];
        long grants = st.exclusiveGrants;
        return st.exclusiveHeld == 0 ? grants : -1;
    }

    /**
     * Whether no exclusive lock was held in {@code stripe} at any time since {@link #readStamp} returned
     * {@code stamp}: then nobody could change a key of the stripe meanwhile, so what the read saw was
     * committed (a writer changes a key only under its exclusive lock, and releases it only once its
     * change is committed or undone). A writer's grant is counted before its change, so a read that saw
     * the change sees the count too.
     */
    boolean validate(int stripe, long stamp) {
        Stripe st = stripes[stripe];
        return stamp >= 0 && st.exclusiveHeld == 0 && st.exclusiveGrants == stamp;
    }

    /**
     * {@link #readStamp} of every stripe at once, for a read without locks of a key range (a scan): the
     * stamps to {@link #validateAll}, or null if someone holds an exclusive lock in any stripe now. Every
     * stripe, not just those of the keys the read returns: a key another transaction deleted and has not
     * committed is absent from the tree, so only its exclusive lock, in a stripe nobody can name in
     * advance, shows that the read must wait for it.
     */
    long[] readStamps() {
        long[] stamps = new long[STRIPES];
        for (int i = 0; i < STRIPES; i++) {
            stamps[i] = readStamp(i);
            if (stamps[i] < 0) {
                return null;
            }
        }
        return stamps;
    }

    /**
     * Whether no exclusive lock was held in any stripe at any time since {@link #readStamps} returned
     * {@code stamps}: then no key anywhere changed meanwhile and every key held committed data, so a
     * read of a whole range in that time saw what a transaction holding shared locks on all its keys
     * would have seen ({@link #validate}, for every stripe).
     */
    boolean validateAll(long[] stamps) {
        for (int i = 0; i < STRIPES; i++) {
            if (!validate(i, stamps[i])) {
                return false;
            }
        }
        return true;
    }

    /** Acquires (or upgrades to) {@code mode} on {@code key} for {@code tx}, waiting if needed. */
    void lock(Txn tx, byte[] key, Mode mode) {
        Stripe stripe = stripeOf(key);
        synchronized (stripe) {
            lock(stripe, tx, key, mode);
        }
    }

    private void lock(Stripe stripe, Txn tx, byte[] key, Mode mode) {
        Entry e = stripe.table.get(key);
        byte[] stored = null;
        if (e == null) {
            e = new Entry();
            stored = key.clone(); // never changed: the table and the holder's list share it
            stripe.table.put(stored, e);
        }
        Mode held = e.modeOf(tx);
        if (held == Mode.EXCLUSIVE || held == mode) {
            return;
        }
        long deadline = System.nanoTime() + timeoutNanos;
        while (!compatible(e, tx, mode)) {
            tx.waitingFor = e; // published before the cycle check: see the class comment
            if (deadlocks(tx, e)) {
                tx.waitingFor = null;
                throw new TransactionConflictException("transaction " + tx.id + " would deadlock on key "
                        + printable(key) + " (" + mode + "); abort and retry it");
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                tx.waitingFor = null;
                throw new TransactionConflictException("transaction " + tx.id + " waited "
                        + Duration.ofNanos(timeoutNanos) + " for " + mode + " lock on key " + printable(key)
                        + "; abort and retry it");
            }
            e.waiters++;
            try {
                stripe.wait(Math.max(1, left / 1_000_000));
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                throw new TransactionConflictException("transaction " + tx.id + " was interrupted waiting for a lock");
            } finally {
                e.waiters--;
                tx.waitingFor = null;
            }
        }
        if (held == null) {
            tx.held.add(stored != null ? stored : key.clone());
        }
        if (mode == Mode.EXCLUSIVE) {
            stripe.exclusiveHeld++; // under the monitor (one writer at a time); before the grant counter: see validate
            stripe.exclusiveGrants++;
        }
        e.grant(tx, mode);
    }

    private static boolean compatible(Entry e, Txn tx, Mode mode) {
        for (Holder h : e.holders) {
            if (h.txn != tx && (mode == Mode.EXCLUSIVE || h.mode == Mode.EXCLUSIVE)) {
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
        for (Holder h : e.holders) {
            if (h.txn != tx) {
                frontier.add(h.txn);
            }
        }
        while (!frontier.isEmpty()) {
            Txn t = frontier.poll();
            Entry waits = t.waitingFor; // read once: another stripe's waiter may stop waiting meanwhile
            if (!seen.add(t) || waits == null) {
                continue;
            }
            for (Holder h : waits.holders) {
                Txn next = h.txn;
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
    boolean isWaiting(Txn tx) {
        return tx.waitingFor != null;
    }

    /** Releases every lock of {@code tx} (at commit or after abort), waking the waiters of each key's stripe. */
    void releaseAll(Txn tx) {
        for (byte[] key : tx.held) {
            Stripe stripe = stripeOf(key);
            synchronized (stripe) {
                Entry e = stripe.table.get(key);
                if (e != null) {
                    if (e.release(tx) == Mode.EXCLUSIVE) {
                        stripe.exclusiveHeld--;
                    }
                    if (e.holders.length == 0 && e.waiters == 0) {
                        stripe.table.remove(key);
                    }
                    if (e.waiters > 0) {
                        stripe.notifyAll();
                    }
                }
            }
        }
        tx.held.clear();
    }

    /**
     * Keys in [from, to) (to null = unbounded) that transactions other than {@code tx} hold exclusively,
     * ascending (each stripe is read under its monitor; the result is a snapshot per stripe).
     */
    List<byte[]> exclusiveKeys(byte[] from, byte[] to, Txn tx) {
        List<byte[]> out = new ArrayList<>();
        if (to != null && Arrays.compareUnsigned(from, to) >= 0) {
            return out;
        }
        for (Stripe stripe : stripes) {
            synchronized (stripe) {
                var range = to == null ? stripe.table.tailMap(from, true) : stripe.table.subMap(from, true, to, false);
                for (Map.Entry<byte[], Entry> en : range.entrySet()) {
                    if (en.getValue().heldExclusivelyByOtherThan(tx)) {
                        out.add(en.getKey().clone());
                    }
                }
            }
        }
        out.sort(Arrays::compareUnsigned);
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
