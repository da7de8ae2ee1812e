package io.most.tier;

import static io.most.tier.TierFixture.BLOCK;
import static io.most.tier.TierFixture.SEGMENT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.BatchIOException;
import io.most.device.BlockDevice;
import io.most.device.BlockDeviceContractTest;
import io.most.device.DeviceIOException;
import io.most.device.FaultyDevice;
import io.most.device.ForwardingDevice;
import io.most.device.IoOp;
import io.most.device.IoRequest;
import io.most.device.MemoryDevice;
import io.most.tier.policy.MirroredWrite;
import io.most.tier.policy.SegmentClass;
import io.most.tier.policy.Tier;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link TieredVolume#transferAll}: each request routed as a single one, each device's share sent as one
 * batch with both devices in flight together, the volume's invariants kept (mirrored subpage states,
 * failover, discards and migrations racing), and the migrator's copies of several segments batched.
 */
class TieredVolumeBatchTest {
    private final Arena arena = Arena.ofShared();
    private final List<AutoCloseable> open = new ArrayList<>();

    /** Records the size of every batch that reaches the device, and can hold each batch at a barrier. */
    static final class BatchProbe extends ForwardingDevice {
        final List<Integer> batches = new CopyOnWriteArrayList<>();
        volatile CyclicBarrier barrier;
        /** While set, a batch signals {@code entered} and then waits for {@code release}. */
        volatile CountDownLatch entered;
        volatile CountDownLatch release;

        BatchProbe(BlockDevice inner) {
            super(inner);
        }

        @Override
        public void transferAll(List<IoRequest> requests) {
            batches.add(requests.size());
            CyclicBarrier b = barrier;
            if (b != null) {
                try {
                    b.await(TierFixture.PATIENCE.toSeconds(), TimeUnit.SECONDS); // a failure detector, not a timing
                } catch (Exception e) {
                    throw new AssertionError("the other device's batch never arrived while this one was in flight", e);
                }
            }
            CountDownLatch hold = release;
            if (hold != null) {
                entered.countDown();
                try {
                    hold.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }
            super.transferAll(requests);
        }
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open.reversed()) {
            c.close();
        }
        arena.close();
    }

    private TieredVolume volume(BlockDevice perf, BlockDevice cap, TierConfig.Builder config) {
        TieredVolume v = TieredVolume.open(perf, cap, config.build());
        open.add(v);
        return v;
    }

    private TieredVolume scripted(ScriptedPolicy policy, BlockDevice perf, BlockDevice cap) {
        return volume(perf, cap, TierFixture.small().policy(() -> policy));
    }

    /** A scripted volume on {@code perf} and {@code cap} with segment 0 (version 1) on the first, segment 1 on the second. */
    private TieredVolume oneSegmentOnEach(ScriptedPolicy policy, BlockDevice perf, BlockDevice cap) {
        TieredVolume v = scripted(policy, perf, cap);
        policy.place = Tier.PERFORMANCE;
        fillSegment(v, 0, 1);
        policy.place = Tier.CAPACITY;
        fillSegment(v, 1, 1);
        return v;
    }

    /** A volume with {@code config} on {@code perf} and {@code cap} whose segment 0 (version 1) is mirrored. */
    private TieredVolume mirroredSegmentZero(BlockDevice perf, BlockDevice cap, TierConfig.Builder config) {
        TieredVolume v = volume(perf, cap, config);
        fillSegment(v, 0, 1);
        assertTrue(v.context().mirror(0));
        return v;
    }

    private static MemoryDevice perfMemory() {
        return new MemoryDevice("perf", BLOCK, 2L << 20);
    }

    private static MemoryDevice capMemory() {
        return new MemoryDevice("cap", BLOCK, 4L << 20);
    }

    private MemorySegment block() {
        return arena.allocate(BLOCK, BLOCK);
    }

    /** Writes version {@code version} of every block of {@code segment} with one single write. */
    private void fillSegment(TieredVolume v, int segment, long version) {
        MemorySegment data = arena.allocate(SEGMENT, BLOCK);
        long first = (long) segment * SEGMENT / BLOCK;
        for (int b = 0; b < SEGMENT / BLOCK; b++) {
            TierFixture.stamp(data.asSlice((long) b * BLOCK, BLOCK), first + b, version);
        }
        v.write((long) segment * SEGMENT, data);
    }

    private static long version(TieredVolume v, MemorySegment block, long blockNo) {
        return TierFixture.readVersion(v, block, blockNo);
    }

    @Test
    void requestsCrossingSegmentsReachBothDevicesAsOneBatchEach() {
        ScriptedPolicy policy = new ScriptedPolicy();
        BatchProbe perf = new BatchProbe(perfMemory());
        BatchProbe cap = new BatchProbe(capMemory());
        TieredVolume v = oneSegmentOnEach(policy, perf, cap);
        perf.batches.clear();
        cap.batches.clear();
        // one request spans the end of segment 0 and the start of segment 1: it is split between the devices
        MemorySegment across = arena.allocate(4 * BLOCK, BLOCK);
        MemorySegment a = block();
        MemorySegment b = block();
        long lastOfZero = SEGMENT / BLOCK - 1;
        v.transferAll(List.of(IoRequest.read((lastOfZero - 1) * BLOCK, across), IoRequest.read(0, a),
                IoRequest.read((long) SEGMENT + 5 * BLOCK, b)));
        assertEquals(List.of(2), perf.batches, "segment 0's share: two requests in one batch");
        assertEquals(List.of(2), cap.batches, "segment 1's share: two requests in one batch");
        for (int i = 0; i < 4; i++) {
            long blockNo = lastOfZero - 1 + i;
            assertEquals(1, TierFixture.versionOf(across.asSlice((long) i * BLOCK, BLOCK), blockNo), "block " + blockNo);
        }
        assertEquals(1, TierFixture.versionOf(a, 0));
        assertEquals(1, TierFixture.versionOf(b, SEGMENT / BLOCK + 5));
    }

    @Test
    void bothDevicesHaveTheirBatchInFlightTogether() {
        ScriptedPolicy policy = new ScriptedPolicy();
        BatchProbe perf = new BatchProbe(perfMemory());
        BatchProbe cap = new BatchProbe(capMemory());
        TieredVolume v = oneSegmentOnEach(policy, perf, cap);
        CyclicBarrier both = new CyclicBarrier(2); // each device's batch waits until the other's has arrived
        perf.barrier = both;
        cap.barrier = both;
        MemorySegment a = block();
        MemorySegment b = block();
        v.transferAll(List.of(IoRequest.read(3 * BLOCK, a), IoRequest.read((long) SEGMENT + 3 * BLOCK, b)));
        assertEquals(1, TierFixture.versionOf(a, 3));
        assertEquals(1, TierFixture.versionOf(b, SEGMENT / BLOCK + 3));
    }

    @Test
    void buffersConfinedToTheCallerStayOnItsThread() {
        ScriptedPolicy policy = new ScriptedPolicy();
        TieredVolume v = oneSegmentOnEach(policy, perfMemory(), capMemory());
        try (Arena confined = Arena.ofConfined()) {
            MemorySegment a = confined.allocate(BLOCK, BLOCK);
            MemorySegment b = confined.allocate(BLOCK, BLOCK);
            MemorySegment c = block(); // shared: its device's batch may go to the helper
            v.transferAll(List.of(IoRequest.read(0, a), IoRequest.read(SEGMENT, b)));
            assertEquals(1, TierFixture.versionOf(a, 0));
            assertEquals(1, TierFixture.versionOf(b, SEGMENT / BLOCK));
            v.transferAll(List.of(IoRequest.read(BLOCK, a), IoRequest.read(SEGMENT + BLOCK, c)));
            assertEquals(1, TierFixture.versionOf(a, 1));
            assertEquals(1, TierFixture.versionOf(c, SEGMENT / BLOCK + 1));
        }
    }

    @Test
    void mirroredReadsAreRoutedPerRequestByThePolicy() {
        AtomicInteger calls = new AtomicInteger();
        ScriptedPolicy policy = new ScriptedPolicy() {
            @Override
            public Tier routeMirroredRead(int segment) {
                return calls.getAndIncrement() % 2 == 0 ? Tier.PERFORMANCE : Tier.CAPACITY;
            }
        };
        BatchProbe perf = new BatchProbe(perfMemory());
        BatchProbe cap = new BatchProbe(capMemory());
        TieredVolume v = mirroredSegmentZero(perf, cap, TierFixture.small().policy(() -> policy));
        List<IoRequest> reads = new ArrayList<>();
        List<MemorySegment> buffers = new ArrayList<>();
        for (int b = 0; b < 8; b++) {
            buffers.add(block());
            reads.add(IoRequest.read((long) b * BLOCK, buffers.get(b)));
        }
        perf.batches.clear();
        cap.batches.clear();
        v.transferAll(reads);
        assertEquals(8, calls.get(), "one routing decision per request");
        assertEquals(List.of(4), perf.batches);
        assertEquals(List.of(4), cap.batches);
        for (int b = 0; b < 8; b++) {
            assertEquals(1, TierFixture.versionOf(buffers.get(b), b), "block " + b);
        }
    }

    @Test
    void aFailedRequestIsNamedAndEveryOtherCompletes() {
        ScriptedPolicy policy = new ScriptedPolicy();
        FaultyDevice cap = new FaultyDevice(capMemory());
        TieredVolume v = oneSegmentOnEach(policy, perfMemory(), cap);
        MemorySegment a = block();
        MemorySegment b = block();
        MemorySegment c = block();
        cap.failNext(IoOp.READ, 1);
        BatchIOException e = assertThrows(BatchIOException.class, () -> v.transferAll(List.of(
                IoRequest.read(0, a), IoRequest.read((long) SEGMENT, b), IoRequest.read(BLOCK, c))));
        assertEquals(List.of(1), List.copyOf(e.failures().keySet()));
        assertEquals(3, e.batchSize());
        assertTrue(e.getMessage().contains(v.name()) && e.getMessage().contains("faulty-cap"), e.getMessage());
        assertEquals(1, TierFixture.versionOf(a, 0));
        assertEquals(1, TierFixture.versionOf(c, 1));
        assertEquals(1, version(v, b, SEGMENT / BLOCK), "the volume survives the failure");
    }

    @Test
    void aMirroredReadWhoseCopyFailsIsServedByTheOther() {
        ScriptedPolicy policy = new ScriptedPolicy();
        FaultyDevice cap = new FaultyDevice(capMemory());
        TieredVolume v = mirroredSegmentZero(perfMemory(), cap, TierFixture.small().policy(() -> policy));
        policy.read = Tier.CAPACITY;
        cap.failRange(IoOp.READ, 0, cap.capacity());
        MemorySegment a = block();
        MemorySegment b = block();
        v.transferAll(List.of(IoRequest.read(2 * BLOCK, a), IoRequest.read(9 * BLOCK, b)));
        assertEquals(1, TierFixture.versionOf(a, 2));
        assertEquals(1, TierFixture.versionOf(b, 9));
        assertEquals(2, v.tierStats().readRetries());
    }

    @Test
    void mirroredWritesWhoseCopyFailsGoToTheOtherAndReadTheSameOnEveryRoute() {
        ScriptedPolicy policy = new ScriptedPolicy();
        FaultyDevice perf = new FaultyDevice(perfMemory());
        TieredVolume v = mirroredSegmentZero(perf, capMemory(), TierFixture.small().policy(() -> policy));
        long slot = v.slotOffset(0, Tier.PERFORMANCE); // the segment's copy only: the journal there must work
        perf.failRange(IoOp.WRITE, slot, slot + SEGMENT);
        List<IoRequest> writes = new ArrayList<>();
        for (int b : new int[] {1, 4}) {
            MemorySegment data = block();
            TierFixture.stamp(data, b, 2);
            writes.add(IoRequest.write((long) b * BLOCK, data));
        }
        policy.write = MirroredWrite.PERFORMANCE;
        v.transferAll(writes.subList(0, 1)); // to the failing copy alone: goes to the other one
        policy.write = MirroredWrite.BOTH;
        v.transferAll(writes.subList(1, 2)); // to both, one failing: complete on the other one
        assertEquals(MirrorState.ONLY_CAPACITY, v.subpageState(0, 1));
        assertEquals(MirrorState.ONLY_CAPACITY, v.subpageState(0, 4));
        assertEquals(2, v.tierStats().writeRetries());
        perf.clear();
        MemorySegment buf = block();
        for (Tier route : Tier.values()) {
            policy.read = route;
            assertEquals(2, version(v, buf, 1), "block 1 read via " + route);
            assertEquals(2, version(v, buf, 4), "block 4 read via " + route);
            assertEquals(1, version(v, buf, 5), "block 5 read via " + route);
        }
    }

    @Test
    void twoPartialWritesOfOneMirroredSubpageInABatchBothLand() {
        AtomicInteger calls = new AtomicInteger();
        ScriptedPolicy policy = new ScriptedPolicy() {
            @Override
            public MirroredWrite routeMirroredWrite(int segment) {
                return calls.getAndIncrement() % 2 == 0 ? MirroredWrite.PERFORMANCE : MirroredWrite.CAPACITY;
            }
        };
        // 16 KiB subpages of 4 KiB blocks: blocks 0 and 1 are parts of one subpage
        TieredVolume v = mirroredSegmentZero(perfMemory(), capMemory(),
                TierFixture.small().subpageSize(4 * BLOCK).policy(() -> policy));
        MemorySegment zero = block();
        MemorySegment one = block();
        TierFixture.stamp(zero, 0, 2);
        TierFixture.stamp(one, 1, 2);
        v.transferAll(List.of(IoRequest.write(0, zero), IoRequest.write(BLOCK, one)));
        MemorySegment buf = block();
        for (Tier route : Tier.values()) {
            policy.read = route;
            assertEquals(2, version(v, buf, 0), "block 0 read via " + route);
            assertEquals(2, version(v, buf, 1), "block 1 read via " + route);
            assertEquals(1, version(v, buf, 2), "block 2 read via " + route);
        }
    }

    @Test
    void anInterruptedCallerWaitsForBothDevicesAndTheVolumeSurvives() {
        ScriptedPolicy policy = new ScriptedPolicy();
        TieredVolume v = oneSegmentOnEach(policy, perfMemory(), capMemory());
        MemorySegment a = block();
        MemorySegment b = block();
        Thread.currentThread().interrupt();
        try {
            v.transferAll(List.of(IoRequest.read(0, a), IoRequest.read(SEGMENT, b)));
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt status is kept");
        } finally {
            Thread.interrupted();
        }
        assertEquals(1, TierFixture.versionOf(a, 0));
        assertEquals(1, TierFixture.versionOf(b, SEGMENT / BLOCK));
        assertTrue(v.isOpen());
        assertEquals(1, version(v, a, 1));
    }

    @Test
    void closeWaitsForABatchInFlightWhichCompletes() throws Exception {
        ScriptedPolicy policy = new ScriptedPolicy();
        BatchProbe perf = new BatchProbe(perfMemory());
        BatchProbe cap = new BatchProbe(capMemory());
        TieredVolume v = oneSegmentOnEach(policy, perf, cap);
        cap.entered = new CountDownLatch(1);
        cap.release = new CountDownLatch(1);
        MemorySegment a = block();
        MemorySegment b = block();
        AtomicReference<Throwable> batchFailure = new AtomicReference<>();
        Thread batch = Thread.ofPlatform().start(() -> {
            try {
                v.transferAll(List.of(IoRequest.read(0, a), IoRequest.read(SEGMENT, b)));
            } catch (Throwable t) {
                batchFailure.set(t);
            }
        });
        assertTrue(cap.entered.await(TierFixture.PATIENCE.toSeconds(), TimeUnit.SECONDS));
        Thread closer = Thread.ofPlatform().start(v::close);
        TierFixture.await("close waits for the batch", () -> closer.getState() == Thread.State.TIMED_WAITING);
        assertTrue(closer.isAlive() && batch.isAlive(), "close returned while the capacity device still held the batch");
        assertThrows(IllegalStateException.class, () -> v.transferAll(List.of(IoRequest.read(0, block()))),
                "a batch after close began is refused");
        cap.release.countDown();
        batch.join();
        closer.join();
        assertNull(batchFailure.get());
        assertEquals(1, TierFixture.versionOf(a, 0));
        assertEquals(1, TierFixture.versionOf(b, SEGMENT / BLOCK));
        assertFalse(v.isOpen());
    }

    @Test
    void batchesUnderRandomMigrationsKeepEveryBlock() throws Exception {
        TieredVolume v = volume(new MemoryDevice("perf", BLOCK, 10L * SEGMENT), new MemoryDevice("cap", BLOCK, 24L * SEGMENT),
                TierFixture.small().policy(() -> new ChaosPolicy(11)));
        int blocks = (int) (v.capacity() / BLOCK);
        int threads = 3;
        AtomicLongArray versions = new AtomicLongArray(blocks); // thread t owns the blocks b with b % threads == t
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<Integer>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int owner = t;
            results.add(pool.submit(() -> runBatches(v, owner, threads, blocks, versions)));
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
        assertTrue(verified > 1_000, "verified blocks: " + verified);
        assertTrue(v.tierStats().migrations() > 0, "migrations ran meanwhile: " + v.tierStats() + ", " + intervals);
        MemorySegment buf = block();
        for (int b = 0; b < blocks; b++) {
            assertEquals(versions.get(b), version(v, buf, b), "block " + b + " after " + intervals + " intervals");
        }
        assertEquals(0, v.tierStats().backgroundErrors());
    }

    /**
     * Batches of up to 12 one-block requests on the owner's blocks and a three-block read anywhere (which
     * may cross a segment boundary); every owned block read is checked against its last written version.
     */
    private static int runBatches(TieredVolume v, int owner, int owners, int blocks, AtomicLongArray versions) {
        SplittableRandom random = new SplittableRandom(31 + owner);
        int verified = 0;
        // a confined buffer may not go to another thread: owner 0's batches run on its thread alone
        try (Arena local = owner == 0 ? Arena.ofConfined() : Arena.ofShared()) {
            for (int round = 0; round < 200; round++) {
                List<IoRequest> batch = new ArrayList<>();
                List<long[]> expected = new ArrayList<>(); // per request: first block, blocks, write version or -1
                boolean[] taken = new boolean[blocks];
                for (int i = 0, n = 1 + random.nextInt(12); i < n; i++) {
                    int first = random.nextInt(4) == 0 ? random.nextInt(blocks) : random.nextInt(blocks / 4);
                    first = first - first % owners + owner; // an owned block; the next owned ones are owners apart
                    if (first >= blocks || taken[first]) {
                        continue;
                    }
                    taken[first] = true;
                    MemorySegment buf = local.allocate(BLOCK, BLOCK);
                    if (random.nextInt(3) == 0) {
                        long version = versions.get(first) + 1;
                        TierFixture.stamp(buf, first, version);
                        batch.add(IoRequest.write((long) first * BLOCK, buf));
                        expected.add(new long[] {first, version});
                    } else {
                        batch.add(IoRequest.read((long) first * BLOCK, buf));
                        expected.add(new long[] {first, -1});
                    }
                }
                // one multi-block read that may cross a segment boundary: other owners' blocks in it are not checked
                int start = random.nextInt(blocks - 3);
                MemorySegment wide = local.allocate(3L * BLOCK, BLOCK);
                batch.add(IoRequest.read((long) start * BLOCK, wide));
                v.transferAll(batch);
                for (int i = 0; i < expected.size(); i++) {
                    long[] e = expected.get(i);
                    int b = (int) e[0];
                    if (e[1] >= 0) {
                        versions.set(b, e[1]);
                    } else {
                        assertEquals(versions.get(b), TierFixture.versionOf(batch.get(i).buffer(), b), "block " + b);
                        verified++;
                    }
                }
                for (int k = 0; k < 3; k++) {
                    int b = start + k;
                    if (b % owners == owner && !taken[b]) { // other threads may be writing the others meanwhile
                        assertEquals(versions.get(b), TierFixture.versionOf(wide.asSlice((long) k * BLOCK, BLOCK), b),
                                "block " + b + " of a wide read");
                        verified++;
                    }
                }
            }
        }
        return verified;
    }

    @Test
    void batchesRacingDiscardsOfTheirSegmentsNeverShowAnotherBlocksBytes() throws Exception {
        TieredVolume v = volume(new MemoryDevice("perf", BLOCK, 10L * SEGMENT), new MemoryDevice("cap", BLOCK, 24L * SEGMENT),
                TierFixture.small().policy(() -> new ChaosPolicy(5)));
        int segments = 4;
        int perSegment = SEGMENT / BLOCK;
        AtomicBoolean stop = new AtomicBoolean();
        Thread discarder = Thread.ofPlatform().start(() -> {
            SplittableRandom random = new SplittableRandom(3);
            while (!stop.get()) {
                v.discard((long) random.nextInt(segments) * SEGMENT, SEGMENT);
                v.optimizeNow();
            }
        });
        try (Arena local = Arena.ofShared()) {
            SplittableRandom random = new SplittableRandom(4);
            MemorySegment expected = local.allocate(BLOCK, BLOCK);
            for (int round = 0; round < 400; round++) {
                List<IoRequest> batch = new ArrayList<>();
                List<Integer> blockOf = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    int b = random.nextInt(segments * perSegment);
                    MemorySegment buf = local.allocate(BLOCK, BLOCK);
                    if (random.nextBoolean()) {
                        TierFixture.stamp(buf, b, 1); // each block has one content: a read sees it, zeros, or a mix
                        batch.add(IoRequest.write((long) b * BLOCK, buf));
                    } else {
                        buf.fill((byte) 0x5A);
                        batch.add(IoRequest.read((long) b * BLOCK, buf));
                    }
                    blockOf.add(b);
                }
                v.transferAll(batch);
                for (int i = 0; i < batch.size(); i++) {
                    if (batch.get(i).op() == IoOp.READ) {
                        TierFixture.stamp(expected, blockOf.get(i), 1);
                        assertTrue(BlockDeviceContractTest.zeroOrOldByteByByte(batch.get(i).buffer(), expected),
                                "block " + blockOf.get(i) + " read bytes never written to it");
                    }
                }
            }
        } finally {
            stop.set(true);
            discarder.join();
        }
        assertEquals(0, v.tierStats().backgroundErrors());
    }

    @Test
    void theMigratorCopiesSeveralSegmentsAsOneBatchPerDevice() {
        ScriptedPolicy policy = new ScriptedPolicy();
        BatchProbe perf = new BatchProbe(perfMemory());
        BatchProbe cap = new BatchProbe(capMemory());
        TieredVolume v = scripted(policy, perf, cap);
        for (int s = 0; s < 4; s++) {
            fillSegment(v, s, 1);
        }
        policy.place = Tier.CAPACITY;
        fillSegment(v, 4, 1);
        fillSegment(v, 5, 1);
        perf.batches.clear();
        cap.batches.clear();
        assertArrayEquals(new boolean[] {true, true, true, true}, v.context().mirrorAll(new int[] {0, 1, 2, 3}));
        assertEquals(List.of(4), perf.batches, "the four segments' blocks read in one batch");
        assertEquals(List.of(4), cap.batches, "and written in one batch");
        perf.batches.clear();
        cap.batches.clear();
        assertArrayEquals(new boolean[] {true, true, false}, v.context().moveAll(new int[] {4, 5, 0}, Tier.PERFORMANCE),
                "segment 0 is mirrored, not tiered on the capacity device: skipped");
        assertEquals(List.of(2), cap.batches);
        assertEquals(List.of(2), perf.batches);
        assertEquals(6, v.tierStats().migrations());
        MemorySegment buf = block();
        for (Tier route : Tier.values()) {
            policy.read = route;
            for (int s = 0; s < 6; s++) {
                long b = (long) s * SEGMENT / BLOCK + 7;
                assertEquals(1, version(v, buf, b), "segment " + s + " read via " + route);
            }
        }
        for (int s = 0; s < 4; s++) {
            assertEquals(SegmentClass.MIRRORED, v.segmentClassAt((long) s * SEGMENT));
        }
        assertEquals(SegmentClass.TIERED_PERFORMANCE, v.segmentClassAt(4L * SEGMENT));
    }

    @Test
    void aSegmentWhoseCopyFailsStaysWhereItWasAndTheOthersMigrate() {
        ScriptedPolicy policy = new ScriptedPolicy();
        FaultyDevice cap = new FaultyDevice(capMemory());
        TieredVolume v = scripted(policy, perfMemory(), cap);
        for (int s = 0; s < 3; s++) {
            fillSegment(v, s, 1);
        }
        long freeBefore = v.tierStats().freeCapacitySlots();
        cap.failNext(IoOp.WRITE, 1); // the batch's first write: segment 0's copy
        DeviceIOException e = assertThrows(DeviceIOException.class, () -> v.context().mirrorAll(new int[] {0, 1, 2}));
        assertTrue(e.getMessage().contains("faulty-cap"), e.getMessage());
        assertEquals(SegmentClass.TIERED_PERFORMANCE, v.segmentClassAt(0));
        assertEquals(SegmentClass.MIRRORED, v.segmentClassAt(SEGMENT));
        assertEquals(SegmentClass.MIRRORED, v.segmentClassAt(2L * SEGMENT));
        assertEquals(freeBefore - 2, v.tierStats().freeCapacitySlots(), "the failed copy's slot is free again");
        assertFalse(v.context().mirrorAll(new int[] {1})[0], "already mirrored");
        assertTrue(v.context().mirror(0), "and it migrates once the device works");
        MemorySegment buf = block();
        policy.read = Tier.CAPACITY;
        assertEquals(1, version(v, buf, 3));
    }
}
