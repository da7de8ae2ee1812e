package io.most.it;

import io.most.kv.KvDatabase;
import io.most.kv.Transaction;
import io.most.kv.TransactionConflictException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Child of {@link KvCrashTest}: a YCSB-A-like mix on a {@link KvCrashStore} until it is killed. Each
 * thread owns the keys {@code id % THREADS == thread} and runs, on zipfian keys, 50% reads and 50% writes:
 * auto-commit updates, some deletes, and multi-key transactions that commit or abort. Half the writes
 * of an existing key change its value in place ({@link Transaction#update}), the rest put it whole.
 *
 * <p>Protocol on standard output, one line per event: {@code P <thread> <seq> key=value ...} (a value
 * {@code -} is a delete) just before a commit is requested, {@code C <thread> <seq>} once it returned
 * (acknowledged). Aborted transactions print nothing: their values must never be seen. {@code READY}
 * after the initial load. Values are unique: {@code g<generation>t<thread>s<seq>} plus filler.
 *
 * <p>Arguments: directory, generation, and {@link KvCrashStore.Shape}: {@code SMALL} writes keys such as
 * {@code user12} and values of 100-200 bytes; {@code MAXIMAL} keys of the database's largest size
 * (zero-padded numbers) and values of the largest size half the time, else of 500 bytes up to it.
 */
public final class KvWorkloadMain {
    static final int THREADS = 2;
    static final int KEYS_PER_THREAD = 300;

    private KvWorkloadMain() {
    }

    public static void main(String[] args) throws Exception {
        ForkedJvm.exitWhenParentDies();
        Path dir = Path.of(args[0]);
        int generation = Integer.parseInt(args[1]);
        KvCrashStore.Shape shape = KvCrashStore.Shape.valueOf(args[2]);
        ForkedJvm.LineWriter out = ForkedJvm.lineWriter();
        KvDatabase db = KvCrashStore.open(dir, shape);
        Thread[] threads = new Thread[THREADS];
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            threads[t] = new Thread(() -> new Worker(db, shape, out, generation, thread).load());
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        out.println("READY");
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            threads[t] = new Thread(() -> new Worker(db, shape, out, generation, thread).run());
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
    }

    /** Key {@code n} of {@code thread}: "user" and a number (zero-padded to the largest key if maximal). */
    static String key(KvCrashStore.Shape shape, int thread, int n) {
        int id = n * THREADS + thread;
        return shape == KvCrashStore.Shape.MAXIMAL
                ? "user" + String.format("%0" + (KvCrashStore.MAXIMAL_KEY - 4) + "d", id) : "user" + id;
    }

    private static final class Worker {
        private final KvDatabase db;
        private final KvCrashStore.Shape shape;
        private final ForkedJvm.LineWriter out;
        private final int generation;
        private final int thread;
        private final SplittableRandom random;
        private final Zipfian zipf;
        private long seq;

        Worker(KvDatabase db, KvCrashStore.Shape shape, ForkedJvm.LineWriter out, int generation, int thread) {
            this.db = db;
            this.shape = shape;
            this.out = out;
            this.generation = generation;
            this.thread = thread;
            this.random = new SplittableRandom(generation * 31L + thread);
            this.zipf = new Zipfian(KEYS_PER_THREAD, 0.99);
        }

        /** Inserts every key not present yet, 50 per transaction. */
        void load() {
            for (int from = 0; from < KEYS_PER_THREAD; from += 50) {
                Map<String, String> writes = new LinkedHashMap<>();
                for (int n = from; n < from + 50; n++) {
                    if (db.get(bytes(key(shape, thread, n))) == null) {
                        writes.put(key(shape, thread, n), value());
                    }
                }
                if (!writes.isEmpty()) {
                    commit(writes);
                }
            }
        }

        void run() {
            while (true) {
                int op = random.nextInt(100);
                String key = key(shape, thread, zipf.next(random));
                if (op < 50) {
                    db.get(bytes(key));
                } else if (op < 80) {
                    commit(Map.of(key, value()));
                } else if (op < 85) {
                    commit(Map.of(key, "-"));
                } else {
                    Map<String, String> writes = new LinkedHashMap<>();
                    for (int i = 2 + random.nextInt(3); i > 0; i--) {
                        writes.put(key(shape, thread, zipf.next(random)), random.nextInt(6) == 0 ? "-" : value());
                    }
                    if (random.nextInt(4) == 0) {
                        abort(writes);
                    } else {
                        commit(writes);
                    }
                }
            }
        }

        private String value() {
            return "g" + generation + "t" + thread + "s" + (++seq);
        }

        private void commit(Map<String, String> writes) {
            long id = ++seq;
            StringBuilder line = new StringBuilder("P " + thread + " " + id);
            writes.forEach((k, v) -> line.append(' ').append(k).append('=').append(v));
            try (Transaction tx = db.begin()) {
                apply(tx, writes);
                out.println(line.toString());
                tx.commit();
                out.println("C " + thread + " " + id);
            } catch (TransactionConflictException e) {
                throw new IllegalStateException("threads own disjoint keys; no conflict expected", e);
            }
        }

        private void abort(Map<String, String> writes) {
            try (Transaction tx = db.begin()) {
                apply(tx, writes);
                tx.abort();
            }
        }

        private void apply(Transaction tx, Map<String, String> writes) {
            writes.forEach((k, v) -> {
                if (v.equals("-")) {
                    tx.delete(bytes(k));
                } else if (Math.floorMod(v.hashCode(), 2) != 0 || !updateInPlace(tx, k, v)) {
                    tx.put(bytes(k), shape == KvCrashStore.Shape.MAXIMAL ? padded(v, db.maxValueSize()) : padded(v));
                }
            });
        }

        /**
         * Half the writes change the stored value in place ({@link Transaction#update}) when it is long
         * enough: version, separator, filler to the stored value's own length.
         */
        private static boolean updateInPlace(Transaction tx, String k, String v) {
            byte[] stored = tx.get(bytes(k));
            if (stored == null || stored.length < v.length() + 2) {
                return false;
            }
            return tx.update(bytes(k), 0, bytes(v + "|" + "x".repeat(stored.length - v.length() - 1)));
        }
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The value stored for version {@code v}: the version, a separator, filler to ~150 bytes. */
    static byte[] padded(String v) {
        return bytes(v + "|" + "x".repeat(100 + Math.floorMod(v.hashCode(), 100)));
    }

    /** The value stored for version {@code v} of maximal shape: the largest size half the time, else 500 up to it. */
    static byte[] padded(String v, int maxValue) {
        int h = Math.floorMod(v.hashCode(), 2 * (maxValue - 500));
        int length = h < maxValue - 500 ? maxValue : 500 + h - (maxValue - 500);
        return bytes(v + "|" + "x".repeat(length - v.length() - 1));
    }

    /** The version a stored value carries. */
    static String version(byte[] stored) {
        String s = new String(stored, StandardCharsets.UTF_8);
        return s.substring(0, s.indexOf('|'));
    }

    /** YCSB's zipfian generator (Gray et al.) over [0, n). */
    static final class Zipfian {
        private final int n;
        private final double theta;
        private final double alpha;
        private final double zetan;
        private final double eta;

        Zipfian(int n, double theta) {
            this.n = n;
            this.theta = theta;
            this.zetan = zeta(n, theta);
            this.alpha = 1 / (1 - theta);
            this.eta = (1 - Math.pow(2.0 / n, 1 - theta)) / (1 - zeta(2, theta) / zetan);
        }

        private static double zeta(int n, double theta) {
            double sum = 0;
            for (int i = 1; i <= n; i++) {
                sum += 1 / Math.pow(i, theta);
            }
            return sum;
        }

        int next(SplittableRandom random) {
            double u = random.nextDouble();
            double uz = u * zetan;
            if (uz < 1) {
                return 0;
            }
            if (uz < 1 + Math.pow(0.5, theta)) {
                return 1;
            }
            return Math.min(n - 1, (int) (n * Math.pow(eta * u - eta + 1, alpha)));
        }
    }
}
