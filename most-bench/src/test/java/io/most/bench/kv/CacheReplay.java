package io.most.bench.kv;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.most.PageStoreStats;
import io.most.bench.cli.CacheKeySpace;
import io.most.bench.workload.cache.CacheValues;
import io.most.bench.workload.ycsb.ScrambledZipfian;
import io.most.bench.workload.ycsb.YcsbKeys;
import io.most.cache.CacheConfig;
import io.most.cache.CacheStats;
import io.most.cache.MostCache;
import io.most.device.BlockDevice;
import io.most.device.IoOp;
import io.most.device.MemoryDevice;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A deterministic, single-threaded replay of the {@code cache-zipf} operation stream (zipfian keys, 5%
 * deletes, set on a miss, the bench's value sizes) against {@code most-cache} in the bench's own
 * configuration ({@link MostCacheEngine#config}), over in-memory devices that count every read and
 * write. It reports counters per operation, not times, so it means the same on a loaded machine:
 * device reads and bytes, page-store faults, the hit ratio, and the same stream's hit ratio under two
 * references: an unbounded cache (only cold and post-delete misses: the most a cache whose flash holds
 * every key can reach) and Caffeine's W-TinyLFU bounded to the DRAM budget (what DRAM alone serves).
 */
final class CacheReplay {
    /** Percent of operations that delete their key: {@code CacheZipfWorkload}'s. */
    static final int DELETE_PERCENT = 5;
    /** Heap bytes of a Caffeine entry beyond its value, as the bench's caffeine engine weighs it. */
    static final int CAFFEINE_ENTRY_OVERHEAD = 200;

    private CacheReplay() {
    }

    /**
     * Counters of one replay's measured operations.
     *
     * @param ops                 operations measured (gets + deletes)
     * @param gets                gets
     * @param hits                gets that hit
     * @param unboundedHits       hits of an unbounded cache on the same stream
     * @param dramReferenceHits   hits of W-TinyLFU bounded to the DRAM budget on the same stream
     * @param largeGets           gets of keys with a large value
     * @param smallDeviceReads    reads of the bucket-page device
     * @param smallDeviceBytes    bytes read from it
     * @param largeDeviceReads    reads of the region device: item reads, and a whole region's read when
     *                            the ring reuses it (to find its live items)
     * @param largeDeviceBytes    bytes read from it
     * @param deviceWrites        writes of both devices
     * @param deviceWriteBytes    bytes written to both
     * @param callerLargeReads    region-device reads made on the replaying (request) thread
     * @param callerLargeWrites   region-device writes made on it
     * @param callerLargeForces   region-device forces made on it (a background seal's are not)
     * @param largeForces         region-device forces on any thread
     * @param cache               the cache's and its page store's counters over the measured operations
     * @param allocatedBytes      heap bytes the replaying thread allocated over the measured operations
     * @param config              the cache's configuration (how it split the DRAM budget)
     */
    record Result(long ops, long gets, long hits, long unboundedHits, long dramReferenceHits, long largeGets,
                  long smallDeviceReads, long smallDeviceBytes, long largeDeviceReads, long largeDeviceBytes,
                  long deviceWrites, long deviceWriteBytes, long callerLargeReads, long callerLargeWrites,
                  long callerLargeForces, long largeForces, Counters cache, long allocatedBytes, CacheConfig config) {

        double hitRatio() {
            return (double) hits / gets;
        }

        double unboundedHitRatio() {
            return (double) unboundedHits / gets;
        }

        double dramReferenceHitRatio() {
            return (double) dramReferenceHits / gets;
        }

        /** Gets answered without a device read: an upper bound, since one get may read twice. */
        double servedFromMemory() {
            return 1 - (double) (smallDeviceReads + largeDeviceReads) / gets;
        }

        String describe() {
            return String.format(Locale.ROOT, "bucket-page DRAM %,d B, large-item front %,d B, PM %,d B, bucket pages"
                            + " %,d B%n"
                            + "ops %,d gets %,d (large %,d)%n"
                            + "  hit ratio %.4f | unbounded reference %.4f | W-TinyLFU at the DRAM budget %.4f%n"
                            + "  per op: small-device reads %.4f (%.0f B), region-device reads %.4f (%.0f B),"
                            + " device writes %.4f (%.0f B), allocated %.0f B%n"
                            + "  region device on the request thread per op: reads %.5f, writes %.5f, forces %.5f"
                            + " (forces on any thread %.5f)%n"
                            + "  gets answered from memory >= %.4f; page store: dram hits %,d pm hits %,d faults %,d;"
                            + " cache: small hits %,d large hits %,d (region buffer %,d, dram front %,d, item reads %,d),"
                            + " evictions %,d, reinsertions %,d, overflows %,d, expirations %,d",
                    config.dramBytes(), config.largeItemFrontBytes(), config.pmBytes(), config.smallItemBytes(),
                    ops, gets, largeGets, hitRatio(), unboundedHitRatio(), dramReferenceHitRatio(),
                    (double) smallDeviceReads / ops, (double) smallDeviceBytes / ops, (double) largeDeviceReads / ops,
                    (double) largeDeviceBytes / ops, (double) deviceWrites / ops, (double) deviceWriteBytes / ops,
                    (double) allocatedBytes / ops, (double) callerLargeReads / ops, (double) callerLargeWrites / ops,
                    (double) callerLargeForces / ops, (double) largeForces / ops, servedFromMemory(), cache.dramHits, cache.pmHits,
                    cache.faults, cache.smallHits, cache.largeHits, cache.bufferHits, cache.frontHits, cache.itemReads,
                    cache.evictions, cache.reinsertions, cache.overflows, cache.expirations);
        }
    }

    /**
     * Replays {@code warmupOps} and then {@code measuredOps} operations over {@code keys} keys with a
     * DRAM budget of {@code dramBytes} (and {@code pmBytes} of PM in {@code dir}, if not 0).
     */
    static Result run(long keys, long dramBytes, long pmBytes, Path dir, long warmupOps, long measuredOps, long seed) {
        CacheSetup setup = CacheKeySpace.of(keys).setup(dir, dramBytes, pmBytes);
        long smallBytes = MostCacheEngine.smallDeviceBytes(MostCacheEngine.smallItemBytes(setup));
        long largeBytes = MostCacheEngine.REGION_HEADER_BYTES + MostCacheEngine.largeItemBytes(setup);
        BlockDevice smallDevice = new MemoryDevice("small-items", 4096, smallBytes);
        CallerCountingDevice largeDevice = new CallerCountingDevice(new MemoryDevice("large-items", 4096, largeBytes),
                Thread.currentThread());
        Cache<String, Integer> dram = Caffeine.newBuilder().executor(Runnable::run)
                .maximumWeight(dramBytes).<String, Integer>weigher((k, size) -> size + CAFFEINE_ENTRY_OVERHEAD).build();
        Set<Long> present = new HashSet<>();
        ScrambledZipfian zipf = ScrambledZipfian.ycsb(keys);
        SplittableRandom random = new SplittableRandom(seed);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        CacheConfig config = MostCacheEngine.config(setup, dir, smallDevice, largeDevice);
        try (MostCache cache = MostCache.open(config)) {
            Tally warm = new Tally();
            for (long i = 0; i < warmupOps; i++) {
                step(cache, dram, present, zipf, random, warm);
            }
            CacheStats stats0 = cache.stats();
            long[] dev0 = deviceCounters(smallDevice, largeDevice);
            long alloc0 = threads.getCurrentThreadAllocatedBytes();
            long[] caller0 = {largeDevice.reads.get(), largeDevice.writes.get(), largeDevice.forces.get(),
                largeDevice.stats().ops(IoOp.FORCE)};
            Tally t = new Tally();
            for (long i = 0; i < measuredOps; i++) {
                step(cache, dram, present, zipf, random, t);
            }
            long alloc = threads.getCurrentThreadAllocatedBytes() - alloc0;
            long[] caller = {largeDevice.reads.get(), largeDevice.writes.get(), largeDevice.forces.get(),
                largeDevice.stats().ops(IoOp.FORCE)};
            long[] dev = deviceCounters(smallDevice, largeDevice);
            CacheStats stats = cache.stats();
            return new Result(measuredOps, t.gets, t.hits, t.unboundedHits, t.dramHits, t.largeGets,
                    dev[0] - dev0[0], dev[1] - dev0[1], dev[2] - dev0[2], dev[3] - dev0[3], dev[4] - dev0[4],
                    dev[5] - dev0[5], caller[0] - caller0[0], caller[1] - caller0[1], caller[2] - caller0[2],
                    caller[3] - caller0[3], Counters.between(stats0, stats), alloc, config);
        }
    }

    private static final class Tally {
        long gets;
        long hits;
        long unboundedHits;
        long dramHits;
        long largeGets;
    }

    /** One operation of {@code CacheZipfWorkload}'s client, mirrored on the references. */
    private static void step(MostCache cache, Cache<String, Integer> dram, Set<Long> present, ScrambledZipfian zipf,
                             SplittableRandom random, Tally t) {
        long keynum = zipf.next(random);
        String name = YcsbKeys.name(keynum);
        byte[] key = name.getBytes(StandardCharsets.UTF_8);
        if (random.nextInt(100) < DELETE_PERCENT) {
            cache.remove(key);
            dram.invalidate(name);
            present.remove(keynum);
            return;
        }
        t.gets++;
        boolean large = CacheValues.large(keynum);
        if (large) {
            t.largeGets++;
        }
        if (!present.add(keynum)) {
            t.unboundedHits++;
        }
        if (dram.getIfPresent(name) != null) {
            t.dramHits++;
        } else {
            dram.put(name, CacheValues.size(keynum));
        }
        java.nio.ByteBuffer value = cache.getView(key); // as MostCacheEngine reads
        if (value != null) {
            if (!CacheValues.matches(keynum, value)) {
                throw new IllegalStateException("get of " + name + " returned a value that is not its own");
            }
            t.hits++;
            return;
        }
        cache.put(key, CacheValues.value(keynum));
    }

    private static long[] deviceCounters(BlockDevice small, BlockDevice large) {
        return new long[] {small.stats().ops(IoOp.READ), small.stats().bytes(IoOp.READ),
            large.stats().ops(IoOp.READ), large.stats().bytes(IoOp.READ),
            small.stats().ops(IoOp.WRITE) + large.stats().ops(IoOp.WRITE),
            small.stats().bytes(IoOp.WRITE) + large.stats().bytes(IoOp.WRITE)};
    }

    /** The cache's counters that the replay reports, as differences over the measured operations. */
    record Counters(long smallHits, long largeHits, long bufferHits, long frontHits, long itemReads, long evictions,
                    long reinsertions, long overflows, long expirations, long dramHits, long pmHits, long faults) {
        static Counters between(CacheStats a, CacheStats b) {
            PageStoreStats p = a.pageStore();
            PageStoreStats q = b.pageStore();
            return new Counters(b.smallItemHits() - a.smallItemHits(), b.largeItemHits() - a.largeItemHits(),
                    b.regionBufferHits() - a.regionBufferHits(), b.frontHits() - a.frontHits(),
                    b.regionDeviceReads() - a.regionDeviceReads(),
                    b.evictions() - a.evictions(), b.reinsertions() - a.reinsertions(),
                    b.bucketOverflows() - a.bucketOverflows(), b.expirations() - a.expirations(),
                    q.dramHits() - p.dramHits(), q.pmHits() - p.pmHits(), q.misses() - p.misses());
        }
    }
}
