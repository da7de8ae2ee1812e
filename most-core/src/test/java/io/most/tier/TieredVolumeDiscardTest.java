package io.most.tier;

import io.most.tier.policy.PolicyContext;

import io.most.tier.policy.MirroredWrite;

import io.most.tier.policy.SegmentClass;

import io.most.tier.policy.Tier;

import static io.most.tier.TierFixture.BLOCK;
import static io.most.tier.TierFixture.SEGMENT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.CrashableDevice;
import io.most.device.IoOp;
import io.most.device.MemoryDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link TieredVolume#discard}: whole segments are unmapped and their next write is placed where the
 * policy says then (MOST 3.2.2), mirrored segments lose both copies, parts of segments are discarded
 * on the devices and invalidated on one mirror copy, and discards race reads, writes and migrations.
 */
class TieredVolumeDiscardTest {
    private static final int BLOCKS = SEGMENT / BLOCK;
    private final ScriptedPolicy policy = new ScriptedPolicy();
    private final Arena arena = Arena.ofShared();
    private final MemorySegment block = arena.allocate(BLOCK, BLOCK);
    private MemoryDevice perf;
    private MemoryDevice cap;
    private TieredVolume volume;

    @BeforeEach
    void open() {
        perf = new MemoryDevice("perf", BLOCK, 4 << 20);
        cap = new MemoryDevice("cap", BLOCK, 12 << 20);
        volume = TieredVolume.open(perf, cap, TierFixture.small().policy(() -> policy).build());
    }

    @AfterEach
    void close() {
        volume.close();
        arena.close();
    }

    private void writeSegment(int segment, long version) {
        MemorySegment data = arena.allocate(SEGMENT, BLOCK);
        for (int b = 0; b < BLOCKS; b++) {
            long blockNo = (long) segment * BLOCKS + b;
            TierFixture.stamp(data.asSlice((long) b * BLOCK, BLOCK), blockNo, version);
        }
        volume.write((long) segment * SEGMENT, data);
    }

    private long read(long blockNo) {
        return TierFixture.readVersion(volume, block, blockNo);
    }

    private void write(long blockNo, long version) {
        TierFixture.writeVersion(volume, block, blockNo, version);
    }

    private int freeSlots() {
        return volume.context().freeSlots(Tier.PERFORMANCE) + volume.context().freeSlots(Tier.CAPACITY);
    }

    @Test
    void theNextWriteOfADiscardedSegmentIsPlacedWhereThePolicySaysNow() {
        writeSegment(0, 1);
        writeSegment(1, 1);
        assertEquals(SegmentClass.TIERED_PERFORMANCE, volume.segmentClassAt(0));
        int perfFree = volume.context().freeSlots(Tier.PERFORMANCE);
        policy.place = Tier.CAPACITY;

        write(BLOCKS + 3, 2); // segment 1, not discarded: a rewrite stays where the segment is
        assertEquals(SegmentClass.TIERED_PERFORMANCE, volume.segmentClassAt(SEGMENT));

        volume.discard(0, SEGMENT);
        assertEquals(SegmentClass.UNALLOCATED, volume.segmentClassAt(0));
        assertEquals(perfFree + 1, volume.context().freeSlots(Tier.PERFORMANCE), "the slot went back to the pool");
        assertEquals(SEGMENT, perf.stats().bytes(IoOp.DISCARD), "the freed slot was discarded on its device");
        for (int b = 0; b < BLOCKS; b++) {
            assertEquals(0, read(b), "a discarded segment reads as zeros");
        }
        write(5, 3);
        assertEquals(SegmentClass.TIERED_CAPACITY, volume.segmentClassAt(0), "allocated by the policy's choice");
        assertEquals(3, read(5));
        assertEquals(0, read(4), "the rest of the reallocated segment reads as zeros");
        assertEquals(2, read(BLOCKS + 3));
        assertEquals(1, read(BLOCKS + 4));
    }

    @Test
    void aMirroredSegmentLosesBothCopiesAndItsHeat() {
        writeSegment(0, 1);
        assertTrue(volume.context().mirror(0));
        for (int i = 0; i < 20; i++) {
            read(1);
        }
        assertTrue(volume.context().heat(0) > 0);
        int free = freeSlots();
        volume.discard(0, SEGMENT);
        assertEquals(SegmentClass.UNALLOCATED, volume.segmentClassAt(0));
        assertEquals(free + 2, freeSlots(), "both copies' slots are free");
        assertEquals(0, volume.context().mirroredSegments());
        assertEquals(0, volume.context().heat(0), "the discarded data's heat is gone");
        assertEquals(SEGMENT, perf.stats().bytes(IoOp.DISCARD));
        assertEquals(SEGMENT, cap.stats().bytes(IoOp.DISCARD));
        assertEquals(0, read(7));
        policy.place = Tier.CAPACITY;
        write(7, 2);
        assertEquals(SegmentClass.TIERED_CAPACITY, volume.segmentClassAt(0));
    }

    @Test
    void aPartialDiscardOfATieredSegmentDiscardsThoseBlocksOnly() {
        writeSegment(0, 1);
        volume.discard(2L * BLOCK, 3L * BLOCK);
        assertEquals(SegmentClass.TIERED_PERFORMANCE, volume.segmentClassAt(0), "a partial discard keeps the segment");
        for (int b = 0; b < BLOCKS; b++) {
            // the performance device is a MemoryDevice: its discarded blocks read as zeros
            assertEquals(b >= 2 && b < 5 ? 0 : 1, read(b), "block " + b);
        }
        assertEquals(3L * BLOCK, perf.stats().bytes(IoOp.DISCARD));
    }

    @Test
    void aPartialDiscardOfAMirroredSegmentLeavesOneValidCopyPerSubpage() {
        writeSegment(0, 1);
        assertTrue(volume.context().mirror(0));
        policy.write = MirroredWrite.CAPACITY;
        write(4, 2); // valid on the capacity copy only
        volume.discard(3L * BLOCK, 3L * BLOCK);
        assertEquals(SegmentClass.MIRRORED, volume.segmentClassAt(0));
        assertEquals(MirrorState.ONLY_PERFORMANCE, volume.subpageState(0, 3), "clean: kept on the performance copy");
        assertEquals(MirrorState.ONLY_CAPACITY, volume.subpageState(0, 4), "the valid copy stays the valid one");
        assertEquals(MirrorState.ONLY_PERFORMANCE, volume.subpageState(0, 5));
        assertEquals(MirrorState.CLEAN, volume.subpageState(0, 2));
        assertEquals(MirrorState.CLEAN, volume.subpageState(0, 6));
        assertEquals(3L * BLOCK, perf.stats().bytes(IoOp.DISCARD));
        assertEquals(3L * BLOCK, cap.stats().bytes(IoOp.DISCARD));
        for (Tier route : Tier.values()) {
            policy.read = route;
            for (int b = 2; b <= 6; b++) {
                assertEquals(b >= 3 && b <= 5 ? 0 : 1, read(b), "block " + b + " read via " + route);
            }
        }
        write(4, 3);
        assertEquals(3, read(4), "a write after the discard reads back");
    }

    @Test
    void discardsOfUnallocatedSpaceAndBadSpans() {
        int free = freeSlots();
        volume.discard(0, 3L * SEGMENT);
        assertEquals(free, freeSlots());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> volume.discard(512, BLOCK));
        assertTrue(e.getMessage().contains("discard offset 512"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> volume.discard(0, volume.capacity() + BLOCK));
        assertTrue(e.getMessage().contains("capacity " + volume.capacity()), e.getMessage());
    }

    @Test
    void aDiscardOfWholeSegmentsIsDurableWhenItReturns() {
        CrashableDevice.Image perfImage = new CrashableDevice.Image(4 << 20);
        CrashableDevice.Image capImage = new CrashableDevice.Image(12 << 20);
        TierConfig config = TierFixture.small().policy(() -> policy).build();
        CrashableDevice.Crash crash = new CrashableDevice.Crash();
        TieredVolume crashing = TieredVolume.open(new CrashableDevice("perf", BLOCK, perfImage, crash),
                new CrashableDevice("cap", BLOCK, capImage, crash), config);
        MemorySegment data = arena.allocate(2L * SEGMENT, BLOCK);
        for (int b = 0; b < 2 * BLOCKS; b++) {
            TierFixture.stamp(data.asSlice((long) b * BLOCK, BLOCK), b, 1);
        }
        crashing.write(0, data);
        crashing.force();
        assertTrue(crashing.context().mirror(1));
        crashing.discard(0, 2L * SEGMENT);
        policy.place = Tier.CAPACITY;
        TierFixture.stamp(block, 3, 2);
        crashing.write(3L * BLOCK, block); // reallocated, not forced
        crash.crash(new SplittableRandom(3));
        crashing.halt();
        CrashableDevice.Crash crash2 = new CrashableDevice.Crash();
        try (TieredVolume reopened = TieredVolume.open(new CrashableDevice("perf", BLOCK, perfImage, crash2),
                new CrashableDevice("cap", BLOCK, capImage, crash2), config)) {
            assertEquals(SegmentClass.UNALLOCATED, reopened.segmentClassAt(SEGMENT), "the discard survived");
            for (int b = 0; b < 2 * BLOCKS; b++) {
                reopened.read((long) b * BLOCK, block);
                long v = TierFixture.versionOf(block, b);
                assertTrue(v == 0 || (b == 3 && v == 2), "block " + b + " after the crash reads version " + v);
            }
        }
    }

    /**
     * Writers, readers, a discarder (whole segments and parts) and a migrating thread work on the same
     * four segments, after every other slot has held data once, so that a segment written again after a
     * discard takes a freed slot, often the one it just left. The discarder holds the locks of the
     * blocks it discards and the readers and writers the lock of their block, so every read must return
     * exactly the last version written, or zeros after a discard (the devices are memory, whose discarded
     * blocks read as zeros); migrations run unsynchronised. At the end no slot has leaked.
     */
    @Test
    void discardsRaceReadsWritesAndMigrationsOfTheSameSegments() throws Exception {
        int segments = 4;
        int blocks = segments * BLOCKS;
        int all = (int) (volume.capacity() / SEGMENT);
        for (int s = 0; s < all; s++) {
            writeSegment(s, 1);
        }
        volume.discard((long) segments * SEGMENT, (long) (all - segments) * SEGMENT);
        AtomicLongArray last = new AtomicLongArray(blocks);
        ReentrantLock[] locks = new ReentrantLock[blocks];
        for (int i = 0; i < blocks; i++) {
            locks[i] = new ReentrantLock();
            last.set(i, 1);
        }
        int allFree = freeSlots() + segments;
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        List<Future<Integer>> workers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            long seed = 500 + t;
            workers.add(pool.submit(() -> {
                SplittableRandom random = new SplittableRandom(seed);
                int checked = 0;
                try (Arena local = Arena.ofConfined()) {
                    MemorySegment buf = local.allocate(BLOCK, BLOCK);
                    for (int op = 0; op < 1500; op++) {
                        int b = random.nextInt(blocks);
                        locks[b].lock();
                        try {
                            if (random.nextInt(3) == 0) {
                                long version = Math.max(2, last.get(b) + 1);
                                TierFixture.stamp(buf, b, version);
                                volume.write((long) b * BLOCK, buf);
                                last.set(b, version);
                            } else {
                                volume.read((long) b * BLOCK, buf);
                                long v = TierFixture.versionOf(buf, b);
                                assertEquals(last.get(b), v, "block " + b + " (0: discarded since its last write)");
                                checked++;
                            }
                        } finally {
                            locks[b].unlock();
                        }
                    }
                }
                return checked;
            }));
        }
        Future<?> discarder = pool.submit(() -> {
            SplittableRandom random = new SplittableRandom(7);
            while (!stop.get()) {
                int segment = random.nextInt(segments);
                boolean whole = random.nextBoolean();
                int first = whole ? 0 : random.nextInt(BLOCKS - 4);
                int n = whole ? BLOCKS : 1 + random.nextInt(4);
                int base = segment * BLOCKS + first;
                for (int b = base; b < base + n; b++) {
                    locks[b].lock();
                }
                try {
                    volume.discard((long) base * BLOCK, (long) n * BLOCK);
                    for (int b = base; b < base + n; b++) {
                        last.set(b, 0);
                    }
                } finally {
                    for (int b = base; b < base + n; b++) {
                        locks[b].unlock();
                    }
                }
            }
        });
        Future<?> migrator = pool.submit(() -> {
            SplittableRandom random = new SplittableRandom(8);
            PolicyContext context = volume.context();
            while (!stop.get()) {
                int segment = random.nextInt(segments);
                switch (random.nextInt(4)) {
                    case 0 -> context.mirror(segment);
                    case 1 -> context.unmirror(segment, random.nextBoolean() ? Tier.PERFORMANCE : Tier.CAPACITY);
                    case 2 -> context.move(segment, random.nextBoolean() ? Tier.PERFORMANCE : Tier.CAPACITY);
                    default -> policy.place = random.nextBoolean() ? Tier.PERFORMANCE : Tier.CAPACITY;
                }
            }
        });
        int checked = 0;
        try {
            for (Future<Integer> w : workers) {
                checked += w.get();
            }
        } finally {
            stop.set(true);
            discarder.get();
            migrator.get();
            pool.shutdown();
        }
        assertTrue(checked > 1000, "reads checked: " + checked);
        volume.force();
        for (int b = 0; b < blocks; b++) {
            assertEquals(last.get(b), read(b), "block " + b);
        }
        volume.discard(0, (long) segments * SEGMENT);
        assertEquals(allFree, freeSlots(), "every slot is free again: none leaked");
    }
}
