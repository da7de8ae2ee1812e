package io.most.tier;

import io.most.tier.policy.PlacementPolicy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.CrashableDevice;
import io.most.tier.policy.PlacementPolicies;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Supplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Model-based test: several threads issue random reads, writes (one to six blocks, some crossing
 * segments) and forces while the background optimizer migrates, mirrors, unmirrors, cleans and
 * checkpoints every few milliseconds. Writes go to the first half of the volume (so that mirroring
 * and moving find free slots), reads anywhere. Each block's content names its block and version; a thread
 * owns runs of blocks, so the model knows for every read the oldest version it may return (the last
 * one completed before the read began) and the newest (the last one issued). At the end every block
 * must read its last version, also after a clean reopen. Every placement policy runs it (the baselines
 * with a third of the operations), so their migrations are checked for data integrity too.
 */
class TieredVolumeModelTest {
    private static final int THREADS = 4;
    private static final int RUN = 6;
    /** Operations per thread; raise with -Dmost.tier.modelOps=N for a soak run. */
    private static final int OPS_PER_THREAD = Integer.getInteger("most.tier.modelOps", 15000);
    /** Policies that promote hot data under the test's hot window, so must be seen migrating. */
    private static final Set<String> MUST_MIGRATE = Set.of("hemem", "batman", "orthus");

    @ParameterizedTest(name = "{0} policy, {1}-byte blocks")
    @CsvSource({"chaos, 4096", "chaos, 512", "most, 4096", "striping, 4096", "hemem, 4096", "batman, 4096",
            "colloid, 4096", "colloid+, 4096", "orthus, 4096", "orthus, 512"})
    void everyReadSeesTheLatestCompletedWrite(String policyName, int blockSize) throws Exception {
        Supplier<PlacementPolicy> policy = policyName.equals("chaos") ? () -> new ChaosPolicy(4)
                : PlacementPolicies.named(policyName);
        int ops = policyName.equals("chaos") || policyName.equals("most") ? OPS_PER_THREAD : OPS_PER_THREAD / 3;
        TierConfig config = TierFixture.small().optimizerInterval(Duration.ofMillis(2)).policy(policy).build();
        CrashableDevice.Image perfImage = new CrashableDevice.Image(4 << 20);
        CrashableDevice.Image capImage = new CrashableDevice.Image(12 << 20);
        long seed = System.nanoTime();
        int blocks;
        AtomicLongArray completed;
        TierStats stats;
        try (TieredVolume volume = open(perfImage, capImage, blockSize, config)) {
            blocks = (int) (volume.capacity() / blockSize);
            completed = new AtomicLongArray(blocks);
            AtomicLongArray issued = new AtomicLongArray(blocks);
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            // a promoting policy must be seen migrating; on a fast machine one round can end before its
            // heat tracking has promoted anything, so rounds repeat (bounded) until it has
            boolean mustMigrate = MUST_MIGRATE.contains(policyName);
            for (int round = 0; round == 0 || mustMigrate && volume.tierStats().migrations() == 0 && round < 20; round++) {
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    int thread = t;
                    long threadSeed = seed + 31L * round + thread;
                    futures.add(pool.submit(() -> run(volume, blockSize, blocks, ops, thread,
                            new SplittableRandom(threadSeed), completed, issued)));
                }
                for (Future<?> f : futures) {
                    f.get();
                }
            }
            pool.shutdown();
            stats = volume.tierStats();
            assertEquals(0, stats.backgroundErrors(), "background errors (seed " + seed + ")");
            checkAll(volume, blockSize, blocks, completed, seed);
        }
        if (policyName.equals("chaos")) {
            assertTrue(stats.migrations() > 0 && stats.mirroredSegments() + stats.migrations() > 0, stats.toString());
            assertTrue(stats.intentRecords() > 0 && stats.checkpoints() > 1, stats.toString());
        }
        if (MUST_MIGRATE.contains(policyName)) {
            assertTrue(stats.migrations() > 0, "the policy migrated under the test: " + stats);
        }
        try (TieredVolume reopened = open(perfImage, capImage, blockSize, config)) {
            checkAll(reopened, blockSize, blocks, completed, seed);
        }
    }

    private static TieredVolume open(CrashableDevice.Image perf, CrashableDevice.Image cap, int blockSize,
                                     TierConfig config) {
        CrashableDevice.Crash crash = new CrashableDevice.Crash();
        return TieredVolume.open(new CrashableDevice("perf", blockSize, perf, crash),
                new CrashableDevice("cap", blockSize, cap, crash), config);
    }

    static void run(TieredVolume volume, int blockSize, int blocks, int ops, int thread, SplittableRandom random,
                            AtomicLongArray completed, AtomicLongArray issued) {
        int runs = blocks / RUN;
        int writableRuns = runs / 2; // leave free slots, so that mirroring and moving have room
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate((long) RUN * blockSize, blockSize);
            for (int op = 0; op < ops; op++) {
                int action = random.nextInt(100);
                if (action == 0) {
                    volume.force();
                    continue;
                }
                boolean write = action < 50;
                // in the second half, half the operations go to a hot window of the writable runs, so that
                // the policies that promote see heat differences beyond noise (under even heat they rightly
                // move nothing); not from the start, or the window's first writes would place it all on
                // the performance device
                boolean hot = op >= ops / 2 && random.nextBoolean();
                int hotStart = writableRuns - writableRuns / 8;
                int run = write ? ownedRun(random, writableRuns, thread) : random.nextInt(runs);
                while (hot && run < hotStart) {
                    run = write ? ownedRun(random, writableRuns, thread) : hotStart + random.nextInt(writableRuns - hotStart);
                }
                int first = run * RUN + random.nextInt(RUN);
                int count = 1 + random.nextInt(run * RUN + RUN - first);
                MemorySegment io = buffer.asSlice(0, (long) count * blockSize);
                if (write) {
                    for (int i = 0; i < count; i++) {
                        int b = first + i;
                        long v = issued.get(b) + 1;
                        issued.set(b, v);
                        TierFixture.stamp(io.asSlice((long) i * blockSize, blockSize), b, v);
                    }
                    volume.write((long) first * blockSize, io);
                    for (int i = 0; i < count; i++) {
                        completed.set(first + i, issued.get(first + i));
                    }
                } else {
                    long[] low = new long[count];
                    for (int i = 0; i < count; i++) {
                        low[i] = completed.get(first + i);
                    }
                    volume.read((long) first * blockSize, io);
                    for (int i = 0; i < count; i++) {
                        int b = first + i;
                        long v = TierFixture.versionOf(io.asSlice((long) i * blockSize, blockSize), b);
                        long high = issued.get(b);
                        if (v < low[i] || v > high) {
                            throw new AssertionError("block " + b + " read version " + v + ", expected "
                                    + low[i] + ".." + high + " (thread " + thread + ", op " + op + ")");
                        }
                    }
                }
            }
        }
    }

    private static int ownedRun(SplittableRandom random, int runs, int thread) {
        int r = random.nextInt(runs / THREADS) * THREADS + thread;
        return Math.min(r, runs - 1 - ((runs - 1 - thread) % THREADS));
    }

    static void checkAll(TieredVolume volume, int blockSize, int blocks, AtomicLongArray completed, long seed) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment block = arena.allocate(blockSize, blockSize);
            for (int b = 0; b < blocks; b++) {
                volume.read((long) b * blockSize, block);
                assertEquals(completed.get(b), TierFixture.versionOf(block, b), "block " + b + " (seed " + seed + ")");
            }
        }
    }
}
