package io.most.tier;

import io.most.tier.policy.MirroredWrite;

import io.most.tier.policy.SegmentClass;

import io.most.tier.policy.Tier;

import static io.most.tier.TierFixture.BLOCK;
import static io.most.tier.TierFixture.SEGMENT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.CrashableDevice;
import io.most.device.DeviceIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;

/**
 * Crash consistency in process: a volume is abandoned at a random instant while threads write, read
 * and force and the optimizer migrates, mirrors and cleans; both devices lose their unforced writes
 * (each kept, dropped or torn at random) at that instant; the volume is reopened from what survived.
 * Then every block must hold a version at least as new as the last one a completed force covered
 * (no forced write lost, no stale mirror copy served), and must read the same on every read, whichever
 * copy the policy routes to.
 */
class CrashRecoveryTest {
    private static final int THREADS = 3;
    /** Crashes per run; raise with -Dmost.tier.crashCycles=N for a soak run. */
    private static final int CYCLES = Integer.getInteger("most.tier.crashCycles", 12);

    @Test
    void forcedWritesSurviveCrashesAndReadsAreStable() throws Exception {
        long seed = System.nanoTime();
        SplittableRandom random = new SplittableRandom(seed);
        CrashableDevice.Image perfImage = new CrashableDevice.Image(4 << 20);
        CrashableDevice.Image capImage = new CrashableDevice.Image(12 << 20);
        TierConfig config = TierFixture.small().optimizerInterval(Duration.ofMillis(1))
                .policy(() -> new ChaosPolicy(3)).build();
        AtomicLongArray guaranteed = null;
        AtomicLongArray issued = null;
        long resynced = 0;
        long intents = 0;
        for (int cycle = 0; cycle < CYCLES; cycle++) {
            CrashableDevice.Crash crash = new CrashableDevice.Crash();
            TieredVolume volume = TieredVolume.open(new CrashableDevice("perf", BLOCK, perfImage, crash),
                    new CrashableDevice("cap", BLOCK, capImage, crash), config);
            int blocks = (int) (volume.capacity() / BLOCK) / 2;
            if (guaranteed == null) {
                guaranteed = new AtomicLongArray(blocks);
                issued = new AtomicLongArray(blocks);
            } else {
                verifyAfterRecovery(volume, guaranteed, issued, "cycle " + cycle + ", seed " + seed);
                resynced += volume.tierStats().resyncedSubpages();
            }
            AtomicLongArray completed = new AtomicLongArray(blocks);
            for (int b = 0; b < blocks; b++) {
                completed.set(b, guaranteed.get(b));
            }
            AtomicBoolean crashed = new AtomicBoolean();
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                long threadSeed = random.nextLong();
                AtomicLongArray g = guaranteed;
                AtomicLongArray iss = issued;
                futures.add(pool.submit(() -> work(volume, thread, new SplittableRandom(threadSeed), completed, iss, g,
                        crashed)));
            }
            Thread.sleep(30 + random.nextInt(120));
            crashed.set(true);
            crash.crash(random);
            for (Future<?> f : futures) {
                f.get();
            }
            pool.shutdown();
            intents += volume.tierStats().intentRecords();
            volume.halt();
        }
        assertTrue(intents > 0, "the workload wrote to mirrored segments");
        System.out.println("crash test: " + CYCLES + " crashes, " + intents + " intents, " + resynced
                + " subpages resynchronised");
    }

    /** Random single- and multi-block writes of owned blocks, reads, and forces, until the crash. */
    private static void work(TieredVolume volume, int thread, SplittableRandom random, AtomicLongArray completed,
                             AtomicLongArray issued, AtomicLongArray guaranteed, AtomicBoolean crashed) {
        int blocks = completed.length();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(4L * BLOCK, BLOCK);
            while (!crashed.get()) {
                int action = random.nextInt(100);
                if (action < 3) {
                    long[] before = new long[blocks];
                    for (int b = 0; b < blocks; b++) {
                        before[b] = completed.get(b);
                    }
                    volume.force();
                    for (int b = 0; b < blocks; b++) {
                        guaranteed.accumulateAndGet(b, before[b], Math::max);
                    }
                } else if (action < 60) {
                    int first = ownedStart(random, blocks, thread);
                    int count = 1 + random.nextInt(4);
                    MemorySegment io = buffer.asSlice(0, (long) count * BLOCK);
                    for (int i = 0; i < count; i++) {
                        long v = issued.incrementAndGet(first + i);
                        TierFixture.stamp(io.asSlice((long) i * BLOCK, BLOCK), first + i, v);
                    }
                    volume.write((long) first * BLOCK, io);
                    for (int i = 0; i < count; i++) {
                        completed.set(first + i, issued.get(first + i));
                    }
                } else {
                    int b = random.nextInt(blocks);
                    long low = completed.get(b);
                    volume.read((long) b * BLOCK, buffer.asSlice(0, BLOCK));
                    long v = TierFixture.versionOf(buffer.asSlice(0, BLOCK), b);
                    if (v < low || v > issued.get(b)) {
                        throw new AssertionError("block " + b + " read version " + v + " before the crash, expected "
                                + low + ".." + issued.get(b));
                    }
                }
            }
        } catch (DeviceIOException | IllegalStateException e) {
            if (!crashed.get()) {
                throw e;
            }
        }
    }

    /** Owned blocks: runs of four, run r belonging to thread r % THREADS (runs never share a writer). */
    private static int ownedStart(SplittableRandom random, int blocks, int thread) {
        int runs = blocks / 4;
        int run = random.nextInt(runs / THREADS) * THREADS + thread;
        return run * 4;
    }

    private static void verifyAfterRecovery(TieredVolume volume, AtomicLongArray guaranteed, AtomicLongArray issued,
                                            String where) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment block = arena.allocate(BLOCK, BLOCK);
            for (int b = 0; b < guaranteed.length(); b++) {
                volume.read((long) b * BLOCK, block);
                long v = TierFixture.versionOf(block, b);
                if (v < guaranteed.get(b) || v > issued.get(b)) {
                    throw new AssertionError("block " + b + " recovered version " + v + ", but a completed force covered "
                            + guaranteed.get(b) + " and the newest written was " + issued.get(b) + " (" + where + ")");
                }
                for (int again = 0; again < 4; again++) {
                    volume.read((long) b * BLOCK, block);
                    assertEquals(v, TierFixture.versionOf(block, b), "block " + b + " flips between reads (" + where + ")");
                }
                guaranteed.set(b, v); // what survived is durable now
            }
        }
    }

    @Test
    void unforcedWriteToOneMirrorCopyIsSettledOnRecovery() {
        CrashableDevice.Image perfImage = new CrashableDevice.Image(4 << 20);
        CrashableDevice.Image capImage = new CrashableDevice.Image(12 << 20);
        ScriptedPolicy policy = new ScriptedPolicy();
        TierConfig config = TierFixture.small().policy(() -> policy).build();
        CrashableDevice.Crash crash = new CrashableDevice.Crash();
        TieredVolume volume = TieredVolume.open(new CrashableDevice("perf", BLOCK, perfImage, crash),
                new CrashableDevice("cap", BLOCK, capImage, crash), config);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(SEGMENT, BLOCK);
            for (int b = 0; b < SEGMENT / BLOCK; b++) {
                TierFixture.stamp(segment.asSlice((long) b * BLOCK, BLOCK), b, 1);
            }
            volume.write(0, segment);
            assertTrue(volume.context().mirror(0));
            volume.force();
            MemorySegment block = arena.allocate(BLOCK, BLOCK);
            TierFixture.stamp(block, 2, 2);
            policy.write = MirroredWrite.CAPACITY;
            volume.write(2L * BLOCK, block); // capacity copy only, not forced
            assertEquals(1, volume.tierStats().intentRecords(), "intent journaled before the first single-copy write");
            crash.crash(new SplittableRandom(1));
            volume.halt();
        }
        ScriptedPolicy after = new ScriptedPolicy();
        CrashableDevice.Crash crash2 = new CrashableDevice.Crash();
        try (TieredVolume reopened = TieredVolume.open(new CrashableDevice("perf", BLOCK, perfImage, crash2),
                new CrashableDevice("cap", BLOCK, capImage, crash2), TierFixture.small().policy(() -> after).build());
             Arena arena = Arena.ofConfined()) {
            assertEquals(SegmentClass.MIRRORED, reopened.segmentClassAt(0));
            assertEquals(SEGMENT / BLOCK, reopened.tierStats().resyncedSubpages(), "every clean subpage of the segment");
            MemorySegment block = arena.allocate(BLOCK, BLOCK);
            for (Tier route : Tier.values()) {
                after.read = route;
                reopened.read(2L * BLOCK, block);
                assertEquals(1, TierFixture.versionOf(block, 2), "the performance copy, whatever the route");
            }
        }
    }
}
