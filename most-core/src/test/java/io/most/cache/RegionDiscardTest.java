package io.most.cache;

import static io.most.cache.CacheFixture.key;
import static io.most.cache.CacheFixture.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.errors.ConfigurationException;
import io.most.device.BlockDevice;
import io.most.device.FaultyDevice;
import io.most.device.ForwardingDevice;
import io.most.device.IoOp;
import io.most.device.MemoryDevice;
import io.most.tier.policy.SegmentClass;
import io.most.tier.TierConfig;
import io.most.tier.TieredVolume;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/**
 * A region the large-item engine reclaims is discarded before its new generation is written: on a
 * tiered volume its whole segments are unmapped (the volume's write allocation places the seal), on
 * any other device the discard is harmless, and a read racing it never returns another item's bytes.
 */
class RegionDiscardTest {
    private static final int SEGMENT = 64 * 1024;
    private static final int REGIONS = 6;
    private static final int LARGE = 7000;

    /**
     * Forwards to the device and records each discard as {offset, length}, and what it saw there;
     * leaves closing to the test, which owns the device.
     */
    private static final class RecordingDevice extends ForwardingDevice {
        final List<long[]> discards = new CopyOnWriteArrayList<>();
        final List<SegmentClass> classesBefore = new CopyOnWriteArrayList<>();
        final List<SegmentClass> classesAfter = new CopyOnWriteArrayList<>();

        RecordingDevice(BlockDevice inner) {
            super(inner);
        }

        @Override
        public void close() {
        }

        @Override
        public void discard(long offset, long length) {
            discards.add(new long[] {offset, length});
            if (inner() instanceof TieredVolume v) {
                classesBefore.add(v.segmentClassAt(offset));
            }
            super.discard(offset, length);
            if (inner() instanceof TieredVolume v) {
                for (long at = offset; at < offset + length; at += v.segmentSize()) {
                    classesAfter.add(v.segmentClassAt(at));
                }
            }
        }
    }

    private static TieredVolume volume(int segmentSize) {
        return TieredVolume.open(new MemoryDevice(4L << 20), new MemoryDevice(8L << 20), TierConfig.builder()
                .segmentSize(segmentSize).subpageSize(4096).optimizerInterval(Duration.ZERO).build());
    }

    private static CacheConfig.Builder config(BlockDevice regions, int regionSize) {
        return CacheConfig.builder()
                .smallItemDevice(new RecordingDevice(new MemoryDevice(HybridCache.smallDeviceBytes(65, CacheFixture.PAGE))))
                .largeItemDevice(regions)
                .pageSize(CacheFixture.PAGE).dramBytes(16L * CacheFixture.PAGE).smallItemBytes(64L * CacheFixture.PAGE)
                .largeItemBytes((long) REGIONS * regionSize).largeItemThreshold(256).maxKeyBytes(64);
    }

    /** Puts large items until the ring has come round and reclaimed every region at least once. */
    private static void fillPastTheRing(MostCache cache, int regionSize) {
        int items = 3 * REGIONS * (regionSize / (LARGE + 64));
        for (int i = 0; i < items; i++) {
            cache.put(key(i), value(i, LARGE));
        }
        cache.flush();
    }

    @Test
    void aReclaimedRegionOnATieredVolumeIsUnmappedWholeSegmentsAtATime() {
        try (TieredVolume volume = volume(SEGMENT)) {
            RecordingDevice regions = new RecordingDevice(volume);
            try (MostCache cache = MostCache.open(config(regions, 2 * SEGMENT).regionSize(2 * SEGMENT).build())) {
                fillPastTheRing(cache, 2 * SEGMENT);
            }
            assertFalse(regions.discards.isEmpty(), "regions were reclaimed");
            long start = regions.discards.getFirst()[0];
            assertEquals(SEGMENT, start, "a new cache on a volume starts its regions on the first segment boundary");
            for (int i = 0; i < regions.discards.size(); i++) {
                long[] d = regions.discards.get(i);
                assertEquals(2L * SEGMENT, d[1], "a discard is one whole region");
                assertEquals(0, (d[0] - start) % (2L * SEGMENT), "a discard starts on a region");
                assertEquals(start + (long) (i % REGIONS) * 2 * SEGMENT, d[0],
                        "the ring reclaims region after region, each discarded once");
                // the first time round the ring the regions were never written; from then on they were
                assertTrue(i < REGIONS || regions.classesBefore.get(i) != SegmentClass.UNALLOCATED, "region at " + d[0]
                        + " was mapped: discard " + i + " of " + regions.discards.size() + " " + regions.classesBefore);
            }
            assertTrue(regions.classesAfter.stream().allMatch(c -> c == SegmentClass.UNALLOCATED),
                    "every segment of a discarded region was unmapped: " + regions.classesAfter);
        }
    }

    @Test
    void theDefaultRegionOnAVolumeOfLargeSegmentsIsOneSegment() {
        int segment = 2 << 20;
        try (TieredVolume volume = TieredVolume.open(new MemoryDevice(8L << 20), new MemoryDevice(16L << 20),
                TierConfig.builder().segmentSize(segment).optimizerInterval(Duration.ZERO).build())) {
            CacheConfig config = config(volume, segment).largeItemBytes(4L * segment).build();
            assertEquals(segment, config.regionSize(), "the 1 MiB default is rounded up to whole segments");
            try (MostCache cache = MostCache.open(config)) {
                cache.put(key(1), value(1, LARGE));
                assertArrayEquals(value(1, LARGE), cache.get(key(1)));
            }
        }
    }

    @Test
    void itemsSurviveReclaimsAndARestartOnAVolume() {
        try (TieredVolume volume = volume(SEGMENT)) {
            CacheConfig config = config(new RecordingDevice(volume), SEGMENT).regionSize(SEGMENT).build();
            int items;
            try (MostCache cache = MostCache.open(config)) {
                fillPastTheRing(cache, SEGMENT);
                items = 3 * REGIONS * (SEGMENT / (LARGE + 64));
            }
            try (MostCache cache = MostCache.open(config)) {
                int found = 0;
                for (int i = 0; i < items; i++) {
                    byte[] v = cache.get(key(i));
                    if (v != null) {
                        assertArrayEquals(value(i, LARGE), v, "key " + i);
                        found++;
                    }
                }
                assertTrue(found > 0, "the newest regions kept their items across the restart");
            }
        }
    }

    @Test
    void aNewCacheOnAVolumeRefusesRegionsThatAreNotWholeSegments() {
        try (TieredVolume volume = volume(2 * SEGMENT)) {
            CacheConfig config = config(volume, SEGMENT).regionSize(SEGMENT).build();
            ConfigurationException e = assertThrows(ConfigurationException.class, () -> MostCache.open(config));
            assertTrue(e.getMessage().contains("set regionSize to a multiple of " + 2 * SEGMENT), e.getMessage());
        }
    }

    @Test
    void aCacheOverAPlainDeviceDiscardsItsReclaimedRegionsToo() {
        RecordingDevice regions = new RecordingDevice(new MemoryDevice(RegionStore.headerBytes(4096)
                + (long) REGIONS * CacheFixture.REGION));
        try (MostCache cache = MostCache.open(config(regions, CacheFixture.REGION).regionSize(CacheFixture.REGION)
                .build())) {
            fillPastTheRing(cache, CacheFixture.REGION);
            for (long[] d : regions.discards) {
                assertEquals(CacheFixture.REGION, d[1]);
                assertEquals(0, (d[0] - 4096) % CacheFixture.REGION, "regions follow a one-block header");
            }
            assertTrue(regions.discards.size() >= REGIONS, "every region was reclaimed and discarded");
            int newest = 3 * REGIONS * (CacheFixture.REGION / (LARGE + 64)) - 1;
            assertArrayEquals(value(newest, LARGE), cache.get(key(newest)));
        }
    }

    @Test
    void aFailedDiscardIsOnlyAMissedHintAndTheAppendsGoOn() {
        FaultyDevice regions = new FaultyDevice(new MemoryDevice(RegionStore.headerBytes(4096)
                + (long) REGIONS * CacheFixture.REGION));
        try (MostCache cache = MostCache.open(config(regions, CacheFixture.REGION).regionSize(CacheFixture.REGION)
                .build())) {
            regions.failNext(IoOp.DISCARD, 3);
            fillPastTheRing(cache, CacheFixture.REGION);
            assertTrue(regions.injectedFaults() >= 3, "the discards failed");
            int newest = 3 * REGIONS * (CacheFixture.REGION / (LARGE + 64)) - 1;
            for (int i = newest; i > newest - 10; i--) {
                assertArrayEquals(value(i, LARGE), cache.get(key(i)), "key " + i);
            }
        }
    }

    @Test
    void aCacheFormattedWithTheUnalignedHeaderOpensAsBefore() {
        BlockDevice regions = new RecordingDevice(new MemoryDevice(RegionStore.headerBytes(4096)
                + (long) REGIONS * CacheFixture.REGION));
        BlockDevice small = new RecordingDevice(new MemoryDevice(HybridCache.smallDeviceBytes(65, CacheFixture.PAGE)));
        CacheConfig config = CacheConfig.builder().smallItemDevice(small).largeItemDevice(regions)
                .pageSize(CacheFixture.PAGE).dramBytes(16L * CacheFixture.PAGE).smallItemBytes(64L * CacheFixture.PAGE)
                .largeItemBytes((long) REGIONS * CacheFixture.REGION).regionSize(CacheFixture.REGION)
                .largeItemThreshold(256).maxKeyBytes(64).build();
        try (MostCache cache = MostCache.open(config)) {
            cache.put(key(1), value(1, LARGE));
        }
        try (Arena arena = Arena.ofConfined()) {
            // rewrite the header as version 1 wrote it: no region start, region 0 after one block
            MemorySegment h = regions.allocate(arena, 4096);
            regions.read(0, h);
            h.set(ValueLayout.JAVA_INT_UNALIGNED, 8, RegionLayout.FORMAT_VERSION_UNALIGNED);
            h.set(ValueLayout.JAVA_INT_UNALIGNED, 40, RegionLayout.crc(h, 0, 40));
            h.asSlice(44, 12).fill((byte) 0);
            regions.write(0, h);
        }
        try (MostCache cache = MostCache.open(config)) {
            assertArrayEquals(value(1, LARGE), cache.get(key(1)), "a version 1 cache keeps its layout and items");
        }
    }

    @Test
    void readsRacingTheDiscardOfTheirRegionNeverReturnAnotherItemsBytes() throws Exception {
        try (TieredVolume volume = volume(SEGMENT)) {
            int keys = 4 * REGIONS * (SEGMENT / (LARGE + 64));
            try (MostCache cache = MostCache.open(config(volume, SEGMENT).regionSize(SEGMENT).build())) {
                AtomicBoolean stop = new AtomicBoolean();
                AtomicReference<Throwable> failure = new AtomicReference<>();
                LongAdder hits = new LongAdder();
                Thread writer = Thread.ofPlatform().start(() -> {
                    try {
                        for (int round = 0; round < 6; round++) {
                            for (int i = 0; i < keys; i++) {
                                cache.put(key(i), value(i, LARGE)); // each key always has the same value
                            }
                        }
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                    } finally {
                        stop.set(true);
                    }
                });
                Thread[] readers = new Thread[2];
                for (int r = 0; r < readers.length; r++) {
                    int seed = r;
                    readers[r] = Thread.ofPlatform().start(() -> {
                        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
                        try {
                            while (!stop.get()) {
                                int i = random.nextInt(keys);
                                byte[] v = cache.get(key(i));
                                if (v != null) {
                                    hits.increment();
                                    assertArrayEquals(value(i, LARGE), v, "key " + i + " returned other bytes");
                                }
                            }
                        } catch (Throwable t) {
                            failure.compareAndSet(null, t);
                            stop.set(true);
                        }
                    });
                }
                writer.join();
                for (Thread t : readers) {
                    t.join();
                }
                if (failure.get() != null) {
                    throw new AssertionError(failure.get());
                }
                assertTrue(hits.sum() > 0, "the readers hit items while regions were reclaimed under them");
                assertNotNull(cache.stats());
            }
        }
    }
}
