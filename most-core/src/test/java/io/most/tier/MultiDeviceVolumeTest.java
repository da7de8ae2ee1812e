package io.most.tier;

import io.most.tier.policy.PlacementPolicy;

import io.most.tier.policy.PolicyContext;

import io.most.tier.policy.SegmentClass;

import io.most.tier.policy.Tier;

import static io.most.tier.TierFixture.BLOCK;
import static io.most.tier.TierFixture.SEGMENT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.errors.ConfigurationException;
import io.most.device.BlockDevice;
import io.most.device.CrashableDevice;
import io.most.device.MemoryDevice;
import io.most.tier.policy.PlacementPolicies;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The volume over more than two devices ({@link TieredVolume#open(List, TierConfig)}): a stack of
 * two-device volumes. Read-your-writes while both levels migrate, reopen and crash recovery of the
 * stack, every policy on three devices, HeMem's order over three devices, and misuse refused by name.
 */
class MultiDeviceVolumeTest {
    private static final int[] SIZES = {4 << 20, 8 << 20, 12 << 20};
    private static final int THREADS = 4;
    private static final int OPS = Integer.getInteger("most.tier.modelOps", 15000) / 3;

    private static CrashableDevice.Image[] images() {
        CrashableDevice.Image[] images = new CrashableDevice.Image[SIZES.length];
        for (int i = 0; i < images.length; i++) {
            images[i] = new CrashableDevice.Image(SIZES[i]);
        }
        return images;
    }

    private static List<BlockDevice> devices(CrashableDevice.Image[] images, CrashableDevice.Crash crash) {
        List<BlockDevice> devices = new ArrayList<>();
        for (int i = 0; i < images.length; i++) {
            devices.add(new CrashableDevice("d" + i, BLOCK, images[i], crash));
        }
        return devices;
    }

    /** The devices of a three-device volume created and closed with {@code config}, opened again. */
    private static List<BlockDevice> formatted(TierConfig config) {
        CrashableDevice.Image[] images = images();
        TieredVolume.open(devices(images, new CrashableDevice.Crash()), config).close();
        return devices(images, new CrashableDevice.Crash());
    }

    @ParameterizedTest(name = "{0} policy")
    @ValueSource(strings = {"chaos", "most", "hemem", "striping", "batman", "colloid", "orthus"})
    void everyReadSeesTheLatestCompletedWriteWhileBothLevelsMigrate(String policyName) throws Exception {
        Supplier<PlacementPolicy> policy = policyName.equals("chaos") ? () -> new ChaosPolicy(4)
                : PlacementPolicies.named(policyName);
        TierConfig config = TierFixture.small().optimizerInterval(Duration.ofMillis(2)).policy(policy).build();
        CrashableDevice.Image[] images = images();
        long seed = System.nanoTime();
        int blocks;
        AtomicLongArray completed;
        try (TieredVolume volume = TieredVolume.open(devices(images, new CrashableDevice.Crash()), config)) {
            assertEquals(2, volume.levels().size());
            blocks = (int) (volume.capacity() / BLOCK);
            completed = new AtomicLongArray(blocks);
            AtomicLongArray issued = new AtomicLongArray(blocks);
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            List<Future<?>> futures = new ArrayList<>();
            int ops = policyName.equals("chaos") ? 3 * OPS : OPS;
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                futures.add(pool.submit(() -> TieredVolumeModelTest.run(volume, BLOCK, blocks, ops, thread,
                        new SplittableRandom(seed + thread), completed, issued)));
            }
            for (Future<?> f : futures) {
                f.get();
            }
            pool.shutdown();
            for (TieredVolume level : volume.levels()) {
                TierStats stats = level.tierStats();
                assertEquals(0, stats.backgroundErrors(), level.name() + " (seed " + seed + ")");
                if (policyName.equals("chaos")) {
                    assertTrue(stats.migrations() > 0 && stats.checkpoints() > 1, level.name() + ": " + stats);
                }
            }
            TieredVolumeModelTest.checkAll(volume, BLOCK, blocks, completed, seed);
        }
        try (TieredVolume reopened = TieredVolume.open(devices(images, new CrashableDevice.Crash()), config)) {
            TieredVolumeModelTest.checkAll(reopened, BLOCK, blocks, completed, seed);
        }
    }

    @Test
    void forcedWritesSurviveACrashOfTheWholeStack() {
        CrashableDevice.Image[] images = images();
        TierConfig config = TierFixture.small().policy(() -> new ChaosPolicy(6)).build();
        CrashableDevice.Crash crash = new CrashableDevice.Crash();
        TieredVolume volume = TieredVolume.open(devices(images, crash), config);
        int segments = (int) (volume.capacity() / SEGMENT) / 2;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment block = arena.allocate(BLOCK, BLOCK);
            for (int s = 0; s < segments; s++) {
                TierFixture.stamp(block, (long) s * SEGMENT / BLOCK, 1);
                volume.write((long) s * SEGMENT, block);
            }
            for (int round = 0; round < 5; round++) {
                for (TieredVolume level : volume.levels()) {
                    level.optimizeNow(); // chaos: mirror, move, unmirror at both levels
                }
            }
            volume.force();
            for (int s = 0; s < segments; s += 2) { // not forced: may be lost, must not be torn into the forced ones
                TierFixture.stamp(block, (long) s * SEGMENT / BLOCK, 2);
                volume.write((long) s * SEGMENT, block);
            }
            crash.crash(new SplittableRandom(7));
            volume.halt();
        }
        try (TieredVolume reopened = TieredVolume.open(devices(images, new CrashableDevice.Crash()), config);
             Arena arena = Arena.ofConfined()) {
            MemorySegment block = arena.allocate(BLOCK, BLOCK);
            for (int s = 0; s < segments; s++) {
                long b = (long) s * SEGMENT / BLOCK;
                reopened.read(b * BLOCK, block);
                long v = TierFixture.versionOf(block, b);
                assertTrue(v == 1 || s % 2 == 0 && v == 2, "segment " + s + " recovered version " + v);
            }
        }
    }

    @Test
    void hememKeepsTheHottestOnTheFastestDeviceAndTheNextOnTheNext() {
        TierConfig config = TierFixture.small().policy(PlacementPolicies.named("hemem")).build();
        try (TieredVolume volume = TieredVolume.open(List.of(new MemoryDevice("d0", BLOCK, 1 << 20),
                new MemoryDevice("d1", BLOCK, 1 << 20), new MemoryDevice("d2", BLOCK, 4 << 20)), config);
             Arena arena = Arena.ofConfined()) {
            TieredVolume lower = volume.levels().get(1);
            int segments = (int) (volume.capacity() / SEGMENT);
            MemorySegment block = arena.allocate(BLOCK, BLOCK);
            for (int s = 0; s < segments; s++) { // fills d0, then d1, then d2 (HeMem places on the faster while it has room)
                volume.write((long) s * SEGMENT, block);
            }
            // a hot set as large as d0, read 20 times per round; the next hottest segment 8 times (interleaved,
            // so that cooling halves them alike): d0 takes the hot set, d1 the next hottest
            int d0Slots = volume.context().slots(Tier.PERFORMANCE);
            int firstHot = segments - d0Slots;
            int warm = firstHot - 1;
            assertEquals(SegmentClass.TIERED_CAPACITY, volume.segmentClassAt((long) warm * SEGMENT));
            for (int round = 0; round < 40; round++) {
                for (int i = 0; i < 20; i++) {
                    for (int s = firstHot; s < segments; s++) {
                        volume.read((long) s * SEGMENT, block);
                    }
                    if (i < 8) {
                        volume.read((long) warm * SEGMENT, block);
                    }
                }
                for (TieredVolume level : volume.levels()) {
                    level.optimizeNow();
                }
            }
            for (int s = firstHot; s < segments; s++) {
                assertEquals(SegmentClass.TIERED_PERFORMANCE, volume.segmentClassAt((long) s * SEGMENT),
                        "hot segment " + s + " on the fastest device: " + volume.tierStats());
            }
            long warmBelow = volume.slotOffset(warm, Tier.CAPACITY);
            assertTrue(warmBelow >= 0, "the next hottest stays below d0, which the hot set fills");
            assertEquals(SegmentClass.TIERED_PERFORMANCE, lower.segmentClassAt(warmBelow),
                    "the next hottest on the next device: " + lower.tierStats());
            assertTrue(volume.tierStats().migrations() > 0 && lower.tierStats().migrations() > 0,
                    "both levels promoted: " + volume.tierStats() + " / " + lower.tierStats());
        }
    }

    /**
     * A copy of the level above reaches the volume below as ordinary requests; it is not that volume's demand
     * ({@link LevelAboveMigration}): neither its latency nor the copied segment's heat counts it, while a
     * foreground read of the level above routed there counts in both.
     */
    @Test
    void theLevelAbovesMigrationIsNotDemandForTheVolumeBelow() {
        List<ScriptedPolicy> policies = new ArrayList<>(); // top level first: the volume is opened bottom-up
        TierConfig config = TierFixture.small().policy(() -> {
            ScriptedPolicy p = new ScriptedPolicy();
            policies.addFirst(p);
            return p;
        }).build();
        try (TieredVolume volume = TieredVolume.open(List.of(new MemoryDevice("d0", BLOCK, 1 << 20),
                new MemoryDevice("d1", BLOCK, 1 << 20), new MemoryDevice("d2", BLOCK, 4 << 20)), config);
             Arena arena = Arena.ofConfined()) {
            TieredVolume lower = volume.levels().get(1);
            PolicyContext below = lower.context();
            MemorySegment block = arena.allocate(BLOCK, BLOCK);
            volume.write(0, block); // on d0
            long served = below.requests(Tier.PERFORMANCE) + below.requests(Tier.CAPACITY); // the top level's label

            assertTrue(volume.context().mirror(0), "the top level copies segment 0 onto the volume below");
            int copy = (int) (volume.slotOffset(0, Tier.CAPACITY) / SEGMENT);
            assertEquals(SegmentClass.TIERED_PERFORMANCE, lower.segmentClassAt((long) copy * SEGMENT), "the copy is there");
            assertEquals(served, below.requests(Tier.PERFORMANCE) + below.requests(Tier.CAPACITY), "not in its latency");
            assertEquals(0, below.heat(copy), "not in its heat");

            policies.getFirst().read = Tier.CAPACITY; // the top level routes a read to its copy below
            volume.read(0, block);
            assertEquals(served + 1, below.requests(Tier.PERFORMANCE) + below.requests(Tier.CAPACITY), "a foreground read counts");
            assertEquals(1, below.readHeat(copy));
        }
    }

    @Test
    void devicesLevelsNamesAndCloseCoverTheWholeStack() {
        List<BlockDevice> devices = List.of(new MemoryDevice("a", BLOCK, 4 << 20), new MemoryDevice("b", BLOCK, 4 << 20),
                new MemoryDevice("c", BLOCK, 4 << 20), new MemoryDevice("d", BLOCK, 8 << 20));
        TieredVolume volume = TieredVolume.open(devices, TierFixture.small().name("vol").build());
        assertEquals(devices, volume.devices());
        List<TieredVolume> levels = volume.levels();
        assertEquals(List.of("vol", "vol/1", "vol/2"), levels.stream().map(TieredVolume::name).toList());
        assertSame(devices.get(3), levels.get(2).capacityDevice());
        assertEquals(0, levels.get(1).capacity() % SEGMENT);
        volume.close();
        for (BlockDevice d : devices) {
            assertFalse(d.isOpen(), d.name() + " closed with the volume");
        }
        List<BlockDevice> unnamed = List.of(new MemoryDevice("a", BLOCK, 4 << 20), new MemoryDevice("b", BLOCK, 4 << 20),
                new MemoryDevice("c", BLOCK, 8 << 20));
        try (TieredVolume v = TieredVolume.open(unnamed, TierFixture.small().build())) {
            assertEquals("tier(a+tier(b+c))", v.name());
        }
    }

    @Test
    void fewerThanTwoDevicesAreRefused() {
        var zero = assertThrows(ConfigurationException.class, () -> TieredVolume.open(List.of(), TierFixture.small().build()));
        assertTrue(zero.getMessage().contains("at least two devices"), zero.getMessage());
        var one = assertThrows(ConfigurationException.class, () -> TieredVolume.open(
                List.of(new MemoryDevice("a", BLOCK, 4 << 20)), TierFixture.small().build()));
        assertTrue(one.getMessage().contains("1 given"), one.getMessage());
    }

    @Test
    void mismatchedBlockSizesAndRepeatedDevicesAreRefused() {
        MemoryDevice a = new MemoryDevice("a", BLOCK, 4 << 20);
        var sizes = assertThrows(ConfigurationException.class, () -> TieredVolume.open(List.of(a,
                new MemoryDevice("b", BLOCK, 4 << 20), new MemoryDevice("c", 512, 8 << 20)), TierFixture.small().build()));
        assertTrue(sizes.getMessage().contains("device 3 'c' has 512-byte blocks"), sizes.getMessage());
        var twice = assertThrows(ConfigurationException.class, () -> TieredVolume.open(List.of(a,
                new MemoryDevice("b", BLOCK, 4 << 20), a), TierFixture.small().build()));
        assertTrue(twice.getMessage().contains("'a' was given twice"), twice.getMessage());
        assertTrue(a.isOpen());
    }

    @Test
    void aReorderedListIsRefusedWithTheOrderToPass() {
        TierConfig config = TierFixture.small().build();
        List<BlockDevice> d = formatted(config);
        for (List<BlockDevice> wrong : List.of(List.of(d.get(1), d.get(0), d.get(2)), List.of(d.get(0), d.get(2), d.get(1)),
                List.of(d.get(2), d.get(1), d.get(0)))) {
            var e = assertThrows(ConfigurationException.class, () -> TieredVolume.open(wrong, config));
            assertTrue(e.getMessage().contains("not in the order the tiered volume was created with")
                    && e.getMessage().contains("pass them as ['d0', 'd1', 'd2']"), e.getMessage());
        }
        for (BlockDevice device : d) {
            assertTrue(device.isOpen(), "a refused open leaves the devices to the caller");
        }
        try (TieredVolume volume = TieredVolume.open(d, config)) {
            assertEquals(2, volume.levels().size());
        }
    }

    @Test
    void aPartOfTheListOpenedAloneIsRefused() {
        TierConfig config = TierFixture.small().build();
        List<BlockDevice> d = formatted(config);
        var pair = assertThrows(ConfigurationException.class, () -> TieredVolume.open(d.get(1), d.get(2), config));
        assertTrue(pair.getMessage().contains("'d1' is device 2 of 3"), pair.getMessage());
        var shorter = assertThrows(ConfigurationException.class, () -> TieredVolume.open(List.of(d.get(0), d.get(1)), config));
        assertTrue(shorter.getMessage().contains("device 1 of 3"), shorter.getMessage());
        var nested = assertThrows(ConfigurationException.class, () -> TieredVolume.open(List.of(d.get(0), d.get(1),
                d.get(2), new MemoryDevice("extra", BLOCK, 4 << 20)), config));
        assertTrue(nested.getMessage().contains("but 4 devices were given"), nested.getMessage());
    }

    @Test
    void devicesOfDifferentVolumesAreRefused() {
        TierConfig config = TierFixture.small().build();
        List<BlockDevice> one = formatted(config);
        List<BlockDevice> other = formatted(config);
        var mixed = assertThrows(ConfigurationException.class, () -> TieredVolume.open(List.of(one.get(0), other.get(1),
                other.get(2)), config));
        assertTrue(mixed.getMessage().contains("belong to different tiered volumes"), mixed.getMessage());
        CrashableDevice.Image p = new CrashableDevice.Image(4 << 20);
        CrashableDevice.Image c = new CrashableDevice.Image(8 << 20);
        CrashableDevice.Crash crash = new CrashableDevice.Crash();
        TieredVolume.open(new CrashableDevice("p", BLOCK, p, crash), new CrashableDevice("c", BLOCK, c, crash), config)
                .close();
        var pair = assertThrows(ConfigurationException.class, () -> TieredVolume.open(List.of(
                new CrashableDevice("p", BLOCK, p, crash), new CrashableDevice("c", BLOCK, c, crash), one.get(2)), config));
        assertTrue(pair.getMessage().contains("'p' is device 1 of 2 of a tiered volume, but 3 devices were given"),
                pair.getMessage());
    }

    @Test
    void aFailedOpenLeavesEveryDeviceOpenAndFormatsNothingAboveTheFailure() {
        List<BlockDevice> devices = List.of(new MemoryDevice("tiny", BLOCK, 2 * BLOCK), new MemoryDevice("b", BLOCK, 4 << 20),
                new MemoryDevice("c", BLOCK, 8 << 20));
        var e = assertThrows(ConfigurationException.class, () -> TieredVolume.open(devices, TierFixture.small().build()));
        assertTrue(e.getMessage().contains("'tiny'") && e.getMessage().contains("too small"), e.getMessage());
        for (BlockDevice d : devices) {
            assertTrue(d.isOpen(), d.name());
        }
        assertEquals(VolumeLayout.Found.BLANK, VolumeLayout.readLabel(devices.get(0)).found());
        // the levels below were formatted and released: the same list with a large enough top device opens
        List<BlockDevice> retry = List.of(new MemoryDevice("a", BLOCK, 4 << 20), devices.get(1), devices.get(2));
        try (TieredVolume volume = TieredVolume.open(retry, TierFixture.small().build())) {
            assertEquals(2, volume.levels().size());
        }
    }

    @Test
    void aVolumeAsTheCapacityOfATwoDeviceOpenIsRefused() {
        TieredVolume lower = TieredVolume.open(new MemoryDevice("b", BLOCK, 4 << 20), new MemoryDevice("c", BLOCK, 8 << 20),
                TierFixture.small().build());
        try (lower) {
            var e = assertThrows(ConfigurationException.class, () -> TieredVolume.open(new MemoryDevice("a", BLOCK, 4 << 20),
                    lower, TierFixture.small().build()));
            assertTrue(e.getMessage().contains("TieredVolume.open(List, TierConfig)"), e.getMessage());
        }
    }
}
