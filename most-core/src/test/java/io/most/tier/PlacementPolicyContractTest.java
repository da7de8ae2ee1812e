package io.most.tier;

import io.most.tier.policy.PlacementPolicy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.MemoryDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;

/**
 * The {@link PlacementPolicy} contract: whatever a policy decides, a {@link TieredVolume} under it
 * keeps every block's latest write, alone and under concurrent I/O while its optimizer migrates,
 * mirrors and unmirrors; a fresh instance per volume; a name for reports; an answer for every
 * routing question. Every policy runs it through a subclass that says how to make one
 * ({@link #newPolicy}); it is published in most-core's test jar for policies written elsewhere:
 *
 * <pre>{@code
 * class MyPolicyContractTest extends PlacementPolicyContractTest {
 *     protected PlacementPolicy newPolicy() {
 *         return new MyPolicy();
 *     }
 * }
 * }</pre>
 *
 * The volumes are small (a performance device of 10 segments of 64 KiB, a capacity device of 24)
 * and the optimizer runs on the test's thread, one interval per call: nothing depends on timing.
 */
public abstract class PlacementPolicyContractTest {
    private static final int BLOCK = TierFixture.BLOCK;
    private static final int SEGMENT = TierFixture.SEGMENT;

    private final List<PlacementPolicy> created = new CopyOnWriteArrayList<>();

    /** A new policy with its default settings; called once per volume the suite opens. */
    protected abstract PlacementPolicy newPolicy();

    private TieredVolume volume() {
        return TieredVolume.open(new MemoryDevice("perf", BLOCK, 10L * SEGMENT), new MemoryDevice("cap", BLOCK, 24L * SEGMENT),
                TierFixture.small().policy(() -> {
                    PlacementPolicy p = newPolicy();
                    created.add(p);
                    return p;
                }).build());
    }

    @Test
    public void eachVolumeGetsAFreshInstanceWithAShortName() {
        PlacementPolicy a = newPolicy();
        PlacementPolicy b = newPolicy();
        assertNotSame(a, b, "a policy instance serves one volume");
        assertNotNull(a.name());
        assertFalse(a.name().isBlank() || a.name().chars().anyMatch(Character::isWhitespace), "'" + a.name() + "'");
        assertEquals(a.name(), b.name(), "the name names the policy, not the instance");
        try (TieredVolume v = volume()) {
            assertEquals(a.name(), v.tierStats().policy(), "the volume reports its policy by name");
        }
    }

    @Test
    public void keepsEveryBlockThroughPlacementAndMigration() {
        try (TieredVolume v = volume(); Arena arena = Arena.ofConfined()) {
            int blocks = (int) (v.capacity() / BLOCK);
            long[] versions = new long[blocks];
            MemorySegment buf = arena.allocate(BLOCK, BLOCK);
            for (int b = 0; b < blocks; b++) {
                write(v, buf, b, versions[b] = 1);
            }
            int blocksPerSegment = SEGMENT / BLOCK;
            for (int round = 0; round < 4; round++) {
                // a few hot segments at the far end (placed last, so on the capacity device), read many times
                for (int hot = 0; hot < 3; hot++) {
                    int first = blocks - (hot + 1 + round) * blocksPerSegment;
                    for (int i = 0; i < 40; i++) {
                        v.read((long) (first + i % blocksPerSegment) * BLOCK, buf);
                    }
                }
                v.optimizeNow();
                for (int b = round; b < blocks; b += 7) {
                    write(v, buf, b, ++versions[b]);
                }
                v.optimizeNow();
                verifyAll(v, buf, versions, "after round " + round);
            }
            TierStats s = v.tierStats();
            assertTrue(s.offloadRatio() >= 0 && s.offloadRatio() <= 1, "offload ratio " + s.offloadRatio());
            assertTrue(s.tieredPerformanceSegments() + s.tieredCapacitySegments() + s.mirroredSegments()
                    <= s.logicalSegments(), s.toString());
            assertEquals(0, s.backgroundErrors(), s.toString());
        }
    }

    @Test
    public void answersEveryRoutingQuestion() {
        try (TieredVolume v = volume(); Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(BLOCK, BLOCK);
            for (long off = 0; off < v.capacity(); off += SEGMENT) {
                write(v, buf, (int) (off / BLOCK), 1);
            }
            v.optimizeNow();
            PlacementPolicy policy = created.getLast();
            int segments = (int) (v.capacity() / SEGMENT);
            for (int s = 0; s < segments; s++) {
                assertNotNull(policy.placeNewSegment(s), "placeNewSegment(" + s + ")");
                assertNotNull(policy.routeMirroredRead(s), "routeMirroredRead(" + s + ")");
                assertNotNull(policy.routeMirroredWrite(s), "routeMirroredWrite(" + s + ")");
            }
            double ratio = policy.offloadRatio();
            assertTrue(ratio >= 0 && ratio <= 1, "offload ratio " + ratio);
        }
    }

    @Test
    public void concurrentIoWhileTheOptimizerRunsKeepsEveryBlock() throws Exception {
        try (TieredVolume v = volume()) {
            int blocks = (int) (v.capacity() / BLOCK);
            // per block the version of its last completed write (0 = never), and a lock per block so that
            // every read can be checked against it
            AtomicLongArray versions = new AtomicLongArray(blocks);
            Object[] locks = new Object[blocks];
            for (int i = 0; i < blocks; i++) {
                locks[i] = new Object();
            }
            int threads = 4;
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long seed = 77 + t;
                results.add(pool.submit(() -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    int verified = 0;
                    try (Arena local = Arena.ofConfined()) {
                        MemorySegment buf = local.allocate(BLOCK, BLOCK);
                        for (int op = 0; op < 1_500; op++) {
                            // skewed: a quarter of the blocks take most of the traffic, so that something is hot
                            int block = random.nextInt(4) == 0 ? random.nextInt(blocks) : random.nextInt(blocks / 4);
                            synchronized (locks[block]) {
                                if (random.nextInt(3) == 0) {
                                    long version = versions.get(block) + 1;
                                    write(v, buf, block, version);
                                    versions.set(block, version);
                                } else {
                                    v.read((long) block * BLOCK, buf);
                                    assertEquals(versions.get(block), TierFixture.versionOf(buf, block), "block " + block);
                                    verified++;
                                }
                            }
                        }
                    }
                    return verified;
                }));
            }
            pool.shutdown();
            int intervals = 0;
            while (!pool.isTerminated()) {
                v.optimizeNow();
                intervals++;
            }
            int verified = 0;
            for (Future<Integer> f : results) {
                verified += f.get();
            }
            assertTrue(verified > 1_000, "verified reads: " + verified + " over " + intervals + " optimizer intervals");
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment buf = arena.allocate(BLOCK, BLOCK);
                long[] expected = new long[blocks];
                for (int b = 0; b < blocks; b++) {
                    expected[b] = versions.get(b);
                }
                verifyAll(v, buf, expected, "after the threads and " + intervals + " optimizer intervals");
            }
            assertEquals(0, v.tierStats().backgroundErrors());
        }
    }

    private static void write(TieredVolume v, MemorySegment buf, int block, long version) {
        TierFixture.stamp(buf, block, version);
        v.write((long) block * BLOCK, buf);
    }

    private static void verifyAll(TieredVolume v, MemorySegment buf, long[] versions, String when) {
        for (int b = 0; b < versions.length; b++) {
            v.read((long) b * BLOCK, buf);
            assertEquals(versions[b], TierFixture.versionOf(buf, b), "block " + b + " " + when);
        }
    }
}
