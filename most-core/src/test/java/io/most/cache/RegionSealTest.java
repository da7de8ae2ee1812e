package io.most.cache;

import static io.most.cache.CacheFixture.REGION;
import static io.most.cache.CacheFixture.key;
import static io.most.cache.CacheFixture.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.most.device.BlockDevice;
import io.most.device.DeviceIOException;
import io.most.device.FaultyDevice;
import io.most.device.ForwardingDevice;
import io.most.device.IoOp;
import io.most.device.MemoryDevice;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The region seal pipeline ({@link RegionSealer} under {@link RegionStore}): a full region is written
 * and forced off the appending thread, read from its buffer until then, one region at a time and each
 * forced before the next region's first write; appends wait when both buffers are full; a failed seal
 * surfaces as {@link CacheWriteException} and loses nothing acknowledged.
 */
class RegionSealTest {
    private static final long NOW = 1_700_000_000_000L;
    /** Items of this value size take 10,040 bytes: six fill a 64 KiB region, the seventh opens the next. */
    private static final int VALUE = 10_000;
    private static final int PER_REGION = 6;
    private static final RegionStore.ValueReader<byte[]> BYTES = s -> s.toArray(ValueLayout.JAVA_BYTE);

    private final UUID cacheId = UUID.randomUUID();
    private final List<RegionStore> opened = new ArrayList<>();
    private CacheCounters counters = new CacheCounters();

    @AfterEach
    void closeStores() {
        for (RegionStore s : opened) {
            s.close();
        }
    }

    private static MemoryDevice memory(int regions) {
        return new MemoryDevice("regions", 4096, RegionStore.headerBytes(4096) + (long) regions * REGION);
    }

    private RegionStore open(BlockDevice device, int regions) {
        counters = new CacheCounters();
        RegionStore s = RegionStore.open(device, REGION, regions, cacheId, 1, counters, () -> NOW, null, false, null);
        opened.add(s);
        return s;
    }

    /** Stops {@code s} without saving anything (its sealer's thread ends; the device keeps what it has). */
    private void crash(RegionStore s) {
        opened.remove(s);
        s.close();
    }

    private static ByteKey bk(long i) {
        byte[] k = key(i);
        return new ByteKey(k, KeyHash.of(k));
    }

    private static void put(RegionStore s, long i) {
        s.put(bk(i), ValueSource.of(value(i, VALUE)), 0);
    }

    private static void assertValue(RegionStore s, long i) {
        assertArrayEquals(value(i, VALUE), s.get(bk(i), NOW, 0, BYTES), "the value of key " + i);
    }

    @Test
    void aFullRegionIsWrittenAndForcedOffTheAppendingThreadAndReadFromItsBufferUntilThen() {
        RecordingDevice device = new RecordingDevice(memory(4));
        RegionStore s = open(device, 4);
        device.clearLog(); // the open formatted the device
        device.gate(); // seals cannot finish until opened
        for (int i = 0; i <= PER_REGION; i++) {
            put(s, i); // the last opens region 1 and hands region 0 to the sealer, which is blocked
        }
        long deviceReads = counters.regionDeviceReads.sum();
        for (int i = 0; i <= PER_REGION; i++) {
            assertValue(s, i);
        }
        assertEquals(deviceReads, counters.regionDeviceReads.sum(), "the pending region is read from its buffer");
        assertEquals(PER_REGION + 1, counters.regionBufferHits.sum());
        device.open();
        s.flush();
        Thread appender = Thread.currentThread();
        for (RecordingDevice.Op op : device.log()) {
            if (op.kind() == IoOp.WRITE && op.offset() == RegionStore.headerBytes(4096)) {
                assertTrue(op.thread().getName().startsWith("most-cache-seal-"), "region 0 sealed by " + op.thread());
            }
        }
        long appenderForces = device.log().stream().filter(op -> op.kind() == IoOp.FORCE && op.thread() == appender).count();
        assertEquals(1, appenderForces, "the appending thread forced only in its flush: " + device.log());
        for (int i = 0; i <= PER_REGION; i++) {
            assertValue(s, i); // region 0 now from the device
        }
    }

    @Test
    void regionsReachTheDeviceOneAtATimeEachForcedBeforeTheNextRegionIsWritten() {
        RecordingDevice device = new RecordingDevice(memory(3));
        RegionStore s = open(device, 3);
        int items = PER_REGION * 10;
        for (int i = 0; i < items; i++) {
            put(s, i);
            if (i % 17 == 0) {
                s.flush();
            }
            if (i % 5 == 0) {
                s.remove(bk(i - 1L), NOW); // tombstones in the log too
            }
        }
        s.flush();
        long unforcedRegion = -1;
        int writes = 0;
        for (RecordingDevice.Op op : device.log()) {
            if (op.kind() == IoOp.FORCE) {
                unforcedRegion = -1;
            } else if (op.kind() == IoOp.WRITE && op.offset() >= RegionStore.headerBytes(4096)) {
                long region = (op.offset() - RegionStore.headerBytes(4096)) / REGION;
                if (unforcedRegion != -1 && unforcedRegion != region) {
                    fail("region " + region + " was written before region " + unforcedRegion + " was forced: " + device.log());
                }
                unforcedRegion = region;
                writes++;
            }
        }
        assertTrue(writes > 9, "the ring came round several times: " + writes + " region writes");
        // what the index says is what the device says: a scan from the device finds the same live keys
        RegionStore reopened = open(device.inner(), 3);
        assertEquals(s.entries(), reopened.entries());
        for (byte[] k : s.keys()) {
            ByteKey key = new ByteKey(k, KeyHash.of(k));
            assertArrayEquals(s.get(key, NOW, 0, BYTES), reopened.get(key, NOW, 0, BYTES));
        }
    }

    @Test
    void anAppendWaitsWhileBothBuffersAreFullAndGoesOnWhenTheSealEnds() throws Exception {
        RecordingDevice device = new RecordingDevice(memory(4));
        RegionStore s = open(device, 4);
        device.gate();
        for (int i = 0; i < 2 * PER_REGION; i++) {
            put(s, i); // region 0 handed off (blocked); region 1 filled
        }
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<Throwable> error = new AtomicReference<>();
        Thread third = Thread.ofPlatform().start(() -> {
            try {
                put(s, 2 * PER_REGION); // needs region 1 handed off: waits for region 0's seal
                done.set(true);
            } catch (Throwable t) {
                error.set(t);
            }
        });
        awaitWaiting(third);
        assertFalse(done.get(), "the append waits while region 0's seal is pending and region 1 is full");
        for (int i = 0; i < 2 * PER_REGION; i++) {
            assertValue(s, i); // readers are not blocked by the waiting append
        }
        device.open();
        third.join();
        assertNull(error.get());
        assertTrue(done.get());
        s.flush();
        for (int i = 0; i <= 2 * PER_REGION; i++) {
            assertValue(s, i);
        }
    }

    /** Waits until {@code t} parks (the append waiting for the seal); no time bound on the outcome. */
    private static void awaitWaiting(Thread t) throws InterruptedException {
        while (t.getState() != Thread.State.WAITING) {
            if (!t.isAlive()) {
                fail("the append finished instead of waiting for the seal");
            }
            Thread.sleep(1);
        }
    }

    @Test
    void aFailedSealIsNamedByTheNextFlushAndLosesNothingAcknowledged() {
        MemoryDevice memory = memory(4);
        FaultyDevice device = new FaultyDevice(memory);
        RegionStore s = open(device, 4);
        device.failNext(IoOp.WRITE, 2); // the background seal, then the flush's retry
        for (int i = 0; i <= PER_REGION; i++) {
            put(s, i); // returns: the seal of region 0 fails in the background
        }
        CacheWriteException e = assertThrows(CacheWriteException.class, s::flush);
        assertInstanceOf(DeviceIOException.class, e.getCause());
        assertTrue(e.getMessage().contains("region 0") && e.getMessage().contains(device.name()), e.getMessage());
        for (int i = 0; i <= PER_REGION; i++) {
            assertValue(s, i); // still served from the pending buffer
        }
        s.flush(); // the device works again: region 0 and the open region 1 are written
        crash(s);
        RegionStore afterCrash = open(memory, 4); // no saved index: a scan of what the device holds
        for (int i = 0; i <= PER_REGION; i++) {
            assertValue(afterCrash, i);
        }
    }

    @Test
    void anAppendThatNeedsAFailedSealsBufferThrowsAndIsNotStored() {
        MemoryDevice memory = memory(4);
        FaultyDevice device = new FaultyDevice(memory);
        RegionStore s = open(device, 4);
        device.failNext(IoOp.WRITE, 2);
        for (int i = 0; i < 2 * PER_REGION; i++) {
            put(s, i); // region 0's seal fails in the background; region 1 fills
        }
        long next = 2 * PER_REGION;
        assertThrows(CacheWriteException.class, () -> put(s, next)); // the retry fails too
        assertNull(s.get(bk(next), NOW, 0, BYTES), "a write that threw was not stored");
        put(s, next); // this retry succeeds: region 0 is written and region 1 handed off
        s.flush();
        crash(s);
        RegionStore afterCrash = open(memory, 4);
        for (int i = 0; i <= next; i++) {
            assertValue(afterCrash, i);
        }
    }

    @Test
    void hotItemsAreReinsertedFromARegionTheSealerReadAhead() {
        RecordingDevice device = new RecordingDevice(memory(3));
        RegionStore s = open(device, 3);
        // regions 0, 1, 2 fill; key 0 is read (hot); then region 0 comes round again
        for (int i = 0; i < 3 * PER_REGION; i++) {
            put(s, i);
        }
        s.flush(); // waits for the seals and the read-ahead of region 0
        assertValue(s, 0);
        long readsBefore = device.appenderReads(Thread.currentThread());
        put(s, 3 * PER_REGION); // hands off region 2 and reclaims region 0 in the buffer read ahead
        assertEquals(readsBefore, device.appenderReads(Thread.currentThread()),
                "opening region 0 costs the appending thread no device read");
        assertEquals(1, counters.reinsertions.sum(), "key 0, read since written, moved into the new region 0");
        assertEquals(PER_REGION - 1, counters.evictions.sum());
        assertValue(s, 0);
        assertValue(s, 3 * PER_REGION);
        for (int i = 1; i < PER_REGION; i++) {
            assertNull(s.get(bk(i), NOW, 0, BYTES), "key " + i + " was evicted with region 0");
        }
    }

    @Test
    void reinsertionsLeaveRoomForTheAppendThatOpensTheRegion() {
        RegionStore s = open(memory(3), 3);
        for (int i = 0; i < 3 * PER_REGION; i++) {
            put(s, i);
            assertValue(s, i); // every item read since written: all hot, reinsertion fills its half region
        }
        byte[] big = value(99, 40_000); // with three reinsertions (30 KiB) it would not fit the region
        s.put(bk(99), ValueSource.of(big), 0); // opens region 0 again
        assertArrayEquals(big, s.get(bk(99), NOW, 0, BYTES));
        assertEquals(2, counters.reinsertions.sum(), "two hot items reinserted, the room for the append kept");
        assertValue(s, 0);
        assertValue(s, 1);
    }

    /** A device that logs each operation with its thread and can hold writes back until opened. */
    static final class RecordingDevice extends ForwardingDevice {
        record Op(IoOp kind, long offset, Thread thread) {
        }

        private final List<Op> log = Collections.synchronizedList(new ArrayList<>());
        private volatile CountDownLatch gate = new CountDownLatch(0);

        RecordingDevice(BlockDevice inner) {
            super(inner);
        }

        void clearLog() {
            log.clear();
        }

        void gate() {
            gate = new CountDownLatch(1);
        }

        void open() {
            gate.countDown();
        }

        List<Op> log() {
            synchronized (log) {
                return new ArrayList<>(log);
            }
        }

        long appenderReads(Thread t) {
            return log().stream().filter(op -> op.kind() == IoOp.READ && op.thread() == t).count();
        }

        @Override
        public void read(long offset, MemorySegment destination) {
            log.add(new Op(IoOp.READ, offset, Thread.currentThread()));
            super.read(offset, destination);
        }

        @Override
        public void write(long offset, MemorySegment source) {
            log.add(new Op(IoOp.WRITE, offset, Thread.currentThread()));
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new DeviceIOException("interrupted");
            }
            super.write(offset, source);
        }

        @Override
        public void force() {
            super.force();
            log.add(new Op(IoOp.FORCE, -1, Thread.currentThread()));
        }
    }
}
