package io.most.bench.workload;

import io.most.MigrationPath;
import io.most.MigrationPolicy;
import io.most.Page;
import io.most.PageStore;
import io.most.PageStoreStats;
import io.most.bench.Layer;
import io.most.bench.Units;
import io.most.bench.hierarchy.Hierarchy;
import io.most.bench.hierarchy.PageTarget;
import io.most.bench.workload.ycsb.ScrambledZipfian;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Spitfire's YCSB workloads (paper section 6.1) on a page store: {@code spitfire-ro} (100% reads),
 * {@code spitfire-ba} (50% reads, 50% updates) and {@code spitfire-wh} (10% reads, 90% updates) of
 * ~1 KiB tuples whose keys follow a scrambled zipfian distribution ({@link ScrambledZipfian}).
 *
 * <p><b>Layout.</b> A tuple is an 8-byte key and 10 columns of 100 bytes in a 1 KiB slot (the paper: a
 * 4-byte key and 10 x 100 B). Tuple {@code t} lives in page {@code t / tuplesPerPage} at offset
 * {@code (t % tuplesPerPage) * 1024}, with {@code tuplesPerPage = payloadSize / 1024} (15 in a 16 KiB
 * page, whose header takes a few bytes). The load phase allocates and fills every page, untimed.
 *
 * <p><b>Operations.</b> A read latches the page shared ({@link PageStore#read}), copies the tuple out
 * and checks its key; an update latches it exclusively ({@link PageStore#write}), checks the key,
 * overwrites one random column and marks the page dirty with a fresh LSN. A key that does not match
 * is an error of the operation: the store returned a wrong page.
 *
 * <p><b>Skew.</b> The paper's text gives "Zipfian distribution (z = 0.3)" for YCSB; the default here is
 * YCSB's 0.99 and {@code --theta} sets another (see the report for the value used).
 *
 * <p><b>Report.</b> Counts over the measured window: {@code dram_hits}, {@code pm_hits}, {@code misses},
 * {@code ssd_reads}, {@code ssd_writes} and {@code migrations} per path as the store counts them;
 * {@code pm_writes} = every page image written to PM (write-backs, writes in PM and SSD-to-PM
 * installs, as the store counts them); hit ratios per
 * operation; gauges at the end: {@code inclusivity} (pages in both DRAM and PM / pages in either),
 * frames used, {@code policy_final}. Adaptive runs add the tuner's {@code timeline}.
 */
public final class SpitfireWorkload implements Workload<PageTarget> {
    static final int TUPLE_SIZE = 1024;
    static final int KEY_SIZE = Long.BYTES;
    static final int COLUMNS = 10;
    static final int COLUMN_SIZE = 100;
    static final double DEFAULT_THETA = ScrambledZipfian.YCSB_THETA;
    /** Annealing epochs until the temperature falls from 800 to 8e-5 at x0.9 per epoch, plus the first. */
    public static final int ANNEALING_EPOCHS = 1 + (int) Math.ceil(Math.log(8e-5 / 800) / Math.log(0.9));

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private final String name;
    private final double updateFraction;
    private final String mix;

    /**
     * @param updateFraction share of operations that are updates, 0..1
     * @param mix            the paper's name and mix, for the usage text
     */
    SpitfireWorkload(String name, double updateFraction, String mix) {
        if (updateFraction < 0 || updateFraction > 1) {
            throw new IllegalArgumentException("update fraction must be within [0, 1], got " + updateFraction);
        }
        this.name = name;
        this.updateFraction = updateFraction;
        this.mix = mix;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return "Spitfire " + mix + " of 1 KiB tuples packed in pages, scrambled zipfian keys (--theta, default "
                + DEFAULT_THETA + "); page hierarchies";
    }

    @Override
    public Layer<PageTarget> layer() {
        return Layer.PAGE;
    }

    @Override
    public boolean takesTheta() {
        return true;
    }

    /** Closed loop only: a buffer manager has no service model that says what saturates it. */
    @Override
    public OptionalDouble saturationRate(Hierarchy hierarchy, int blockSize) {
        return OptionalDouble.empty();
    }

    double updateFraction() {
        return updateFraction;
    }

    @Override
    public Session start(PageTarget target, Setup setup) {
        long pages = setup.dataSize() / setup.blockSize();
        PageStore store = target.load(pages, SpitfireWorkload::fillPage);
        int tuplesPerPage = tuplesPerPage(store.payloadSize());
        if (tuplesPerPage < 1) {
            throw new IllegalArgumentException("a page of " + store.payloadSize() + " payload bytes holds no "
                    + TUPLE_SIZE + "-byte tuple");
        }
        long tuples = pages * tuplesPerPage;
        double theta = setup.theta().orElse(DEFAULT_THETA);
        return new SpitfireSession(target, store, new ScrambledZipfian(tuples, theta), tuplesPerPage, setup);
    }

    static int tuplesPerPage(int payloadSize) {
        return payloadSize / TUPLE_SIZE;
    }

    /** The load: every tuple slot gets its key and deterministic column bytes. */
    static void fillPage(long pageId, MemorySegment payload) {
        int perPage = tuplesPerPage((int) payload.byteSize());
        for (int slot = 0; slot < perPage; slot++) {
            long key = pageId * perPage + slot;
            long base = (long) slot * TUPLE_SIZE;
            payload.set(LONG, base, key);
            long x = key * 0x9E3779B97F4A7C15L;
            for (long off = KEY_SIZE; off + Long.BYTES <= TUPLE_SIZE; off += Long.BYTES) {
                x ^= x << 13;
                x ^= x >>> 7;
                x ^= x << 17;
                payload.set(LONG, base + off, x);
            }
        }
    }

    private final class SpitfireSession implements Session {
        private final PageTarget target;
        private final PageStore store;
        private final ScrambledZipfian keys;
        private final int tuplesPerPage;
        private final Setup setup;
        private final AtomicLong lsn = new AtomicLong();
        private final LongAdder reads = new LongAdder();
        private final LongAdder updates = new LongAdder();
        private final PolicySampler sampler;
        private PageStoreStats baseline;
        private long baselineReads;
        private long baselineUpdates;

        SpitfireSession(PageTarget target, PageStore store, ScrambledZipfian keys, int tuplesPerPage, Setup setup) {
            this.target = target;
            this.store = store;
            this.keys = keys;
            this.tuplesPerPage = tuplesPerPage;
            this.setup = setup;
            this.baseline = store.stats();
            this.sampler = target.tuningEpoch().map(e -> new PolicySampler(store, target.openedAtNanos(),
                    e.toNanos(), reads, updates)).orElse(null);
            if (sampler != null) {
                sampler.start();
                target.whenClosed(sampler::stop); // also when the run fails before report()
            }
        }

        @Override
        public Client newClient(int thread) {
            SplittableRandom random = setup.randomFor(thread);
            return new SpitfireClient(store, keys, random, tuplesPerPage, updateFraction, lsn, reads, updates);
        }

        @Override
        public void beginMeasurement() {
            target.beginMeasurement();
            baseline = store.stats();
            baselineReads = reads.sum();
            baselineUpdates = updates.sum();
        }

        @Override
        public void report(Map<String, Object> fields) {
            List<Map<String, Object>> timeline = sampler == null ? List.of() : sampler.stop();
            PageStoreStats now = store.stats();
            PageStoreStats base = baseline;
            long readOps = reads.sum() - baselineReads;
            long updateOps = updates.sum() - baselineUpdates;
            long ops = readOps + updateOps;
            fields.put("ops", ops);
            fields.put("reads", readOps);
            fields.put("updates", updateOps);
            fields.put("update_fraction", updateFraction);
            fields.put("theta", keys.theta());
            fields.put("tuples", keys.items());
            fields.put("tuples_per_page", tuplesPerPage);
            fields.put("tuple_size", TUPLE_SIZE);
            // the store's counters as it reports them
            long dramHits = now.dramHits() - base.dramHits();
            long pmHits = now.pmHits() - base.pmHits();
            long misses = now.misses() - base.misses();
            fields.put("dram_hits", dramHits);
            fields.put("pm_hits", pmHits);
            fields.put("misses", misses);
            // per operation: one page access each, counted once by the store
            fields.put("dram_hit_ratio", ratio(dramHits, ops));
            fields.put("miss_ratio", ratio(misses, ops));
            fields.put("pm_hit_ratio", ratio(pmHits, ops));
            Map<String, Object> migrations = new LinkedHashMap<>();
            for (MigrationPath path : MigrationPath.values()) {
                migrations.put(path.tag(), now.migrations(path) - base.migrations(path));
            }
            long pmWrites = now.pmWrites() - base.pmWrites();
            long ssdReads = now.ssdReads() - base.ssdReads();
            long ssdWrites = now.ssdWrites() - base.ssdWrites();
            fields.put("pm_writes", pmWrites);
            fields.put("ssd_reads", ssdReads);
            fields.put("ssd_writes", ssdWrites);
            fields.put("pm_writes_per_op", ratio(pmWrites, ops));
            // how PM writes persisted (changed lines only, or whole pages) and who wrote PM pages back
            fields.put("pm_line_updates", now.pmLineUpdates() - base.pmLineUpdates());
            fields.put("pm_whole_page_writes", now.pmWholePageWrites() - base.pmWholePageWrites());
            fields.put("pm_whole_page_writebacks", now.pmWholePageWriteBacks() - base.pmWholePageWriteBacks());
            fields.put("pm_installs", now.pmInstalls() - base.pmInstalls());
            fields.put("pm_delta_writes", now.pmDeltaWrites() - base.pmDeltaWrites());
            fields.put("pm_bytes_persisted_per_op", ratio(now.pmBytesPersisted() - base.pmBytesPersisted(), ops));
            fields.put("pm_writebacks_foreground", now.pmWriteBacksForeground() - base.pmWriteBacksForeground());
            fields.put("pm_writebacks_background", now.pmWriteBacksBackground() - base.pmWriteBacksBackground());
            fields.put("ssd_reads_per_op", ratio(ssdReads, ops));
            // non-hierarchical caching (policy orthus-kv): what it sent around PM, and its share at the end
            fields.put("reads_offloaded", now.readsOffloaded() - base.readsOffloaded());
            fields.put("admissions_skipped", now.admissionsSkipped() - base.admissionsSkipped());
            fields.put("offload_ratio_final", now.offloadRatio());
            fields.put("migrations", migrations);
            fields.put("optimistic_retries", now.optimisticRetries() - base.optimisticRetries());
            fields.put("inclusivity", Units.round(now.inclusivity(), 4));
            fields.put("dram_frames_used", now.dramFramesUsed());
            fields.put("pm_frames_used", now.pmFramesUsed());
            fields.put("dirty_pages", now.dirtyPages());
            fields.put("policy_final", now.policy().toString());
            target.describe(fields);
            if (sampler != null) {
                long epochs = (System.nanoTime() - target.openedAtNanos()) / target.tuningEpoch().get().toNanos();
                fields.put("tuning_epochs_elapsed", epochs);
                fields.put("tuning_epochs_needed", ANNEALING_EPOCHS);
                fields.put("policy_settled", PolicySampler.mostFrequentInLastQuarter(timeline));
                fields.put("timeline", timeline);
            }
        }
    }

    private static double ratio(long part, long whole) {
        return whole == 0 ? 0 : Units.round((double) part / whole, 4);
    }

    private static final class SpitfireClient implements Client {
        private final PageStore store;
        private final ScrambledZipfian keys;
        private final SplittableRandom random;
        private final int tuplesPerPage;
        private final double updateFraction;
        private final AtomicLong lsn;
        private final LongAdder reads;
        private final LongAdder updates;
        private final MemorySegment tuple = MemorySegment.ofArray(new byte[TUPLE_SIZE]);
        private final MemorySegment column = MemorySegment.ofArray(new byte[COLUMN_SIZE]);

        SpitfireClient(PageStore store, ScrambledZipfian keys, SplittableRandom random, int tuplesPerPage,
                       double updateFraction, AtomicLong lsn, LongAdder reads, LongAdder updates) {
            this.store = store;
            this.keys = keys;
            this.random = random;
            this.tuplesPerPage = tuplesPerPage;
            this.updateFraction = updateFraction;
            this.lsn = lsn;
            this.reads = reads;
            this.updates = updates;
            for (int i = 0; i < COLUMN_SIZE; i++) {
                column.set(ValueLayout.JAVA_BYTE, i, (byte) random.nextInt());
            }
        }

        @Override
        public void next() {
            long key = keys.next(random);
            long pageId = key / tuplesPerPage;
            long offset = (key % tuplesPerPage) * TUPLE_SIZE;
            if (updateFraction > 0 && random.nextDouble() < updateFraction) {
                update(key, pageId, offset);
                updates.increment();
            } else {
                read(key, pageId, offset);
                reads.increment();
            }
        }

        private void read(long key, long pageId, long offset) {
            try (Page page = store.read(pageId)) {
                MemorySegment.copy(page.payload(), offset, tuple, 0, TUPLE_SIZE);
            }
            checkKey(key, pageId, tuple.get(LONG, 0));
        }

        private void update(long key, long pageId, long offset) {
            try (Page page = store.write(pageId)) {
                MemorySegment payload = page.payload();
                checkKey(key, pageId, payload.get(LONG, offset));
                long l = lsn.incrementAndGet();
                column.set(LONG, 0, l);
                MemorySegment.copy(column, 0, payload, offset + KEY_SIZE
                        + (long) random.nextInt(COLUMNS) * COLUMN_SIZE, COLUMN_SIZE);
                page.markDirty(l);
            }
        }

        private static void checkKey(long key, long pageId, long found) {
            if (found != key) {
                throw new IllegalStateException("tuple " + key + " in page " + pageId + " holds key " + found
                        + ": the page store returned wrong data");
            }
        }

        @Override
        public void close() {
        }
    }

    /**
     * Samples the policy in force and the throughput once per tuning epoch, half an epoch out of phase
     * with the tuner (which switches policies at epoch boundaries), for the adaptive run's timeline
     * (paper Figure 10).
     */
    private static final class PolicySampler implements Runnable {
        private final PageStore store;
        private final long startNanos;
        private final long epochNanos;
        private final LongAdder reads;
        private final LongAdder updates;
        private final List<Map<String, Object>> samples = new ArrayList<>();
        private final Thread thread;
        private volatile boolean running = true;

        PolicySampler(PageStore store, long startNanos, long epochNanos, LongAdder reads, LongAdder updates) {
            this.store = store;
            this.startNanos = startNanos;
            this.epochNanos = epochNanos;
            this.reads = reads;
            this.updates = updates;
            this.thread = Thread.ofPlatform().daemon().name("bench-policy-sampler").unstarted(this);
        }

        void start() {
            thread.start();
        }

        @Override
        public void run() {
            long lastOps = 0;
            long lastAt = System.nanoTime();
            for (long k = 1; running; k++) {
                long at = startNanos + k * epochNanos - epochNanos / 2;
                for (long wait; running && (wait = at - System.nanoTime()) > 0; ) {
                    LockSupport.parkNanos(Math.min(wait, 100_000_000));
                }
                if (!running) {
                    return;
                }
                long now = System.nanoTime();
                long ops = reads.sum() + updates.sum();
                MigrationPolicy policy = store.policy();
                Map<String, Object> sample = new LinkedHashMap<>();
                sample.put("t_s", Units.round((now - startNanos) / 1e9, 2));
                sample.put("ops_s", Units.round((ops - lastOps) * 1e9 / Math.max(1, now - lastAt), 0));
                sample.put("policy", policy.toString());
                synchronized (samples) {
                    samples.add(sample);
                }
                lastOps = ops;
                lastAt = now;
            }
        }

        List<Map<String, Object>> stop() {
            running = false;
            LockSupport.unpark(thread);
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            synchronized (samples) {
                return List.copyOf(samples);
            }
        }

        /** The policy sampled most often in the last quarter of the timeline ("" if none). */
        static String mostFrequentInLastQuarter(List<Map<String, Object>> timeline) {
            Map<String, Integer> counts = new HashMap<>();
            String best = "";
            int bestCount = 0;
            for (Map<String, Object> sample : timeline.subList(timeline.size() * 3 / 4, timeline.size())) {
                String policy = (String) sample.get("policy");
                int c = counts.merge(policy, 1, Integer::sum);
                if (c > bestCount) {
                    best = policy;
                    bestCount = c;
                }
            }
            return best;
        }
    }
}
