package io.most.cache;

import static io.most.cache.CacheFixture.key;
import static io.most.cache.CacheFixture.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.errors.ConfigurationException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The large items' DRAM front ({@code largeItemFrontBytes}): an item copied when written (the front
 * admits it while it has room) is served without a device read, and every change of the key (put, remove, clear, reinsertion,
 * region eviction) is seen through it; counted by device reads, not by time.
 */
class CacheFrontTest {
    private static final int LARGE = 6000;

    @TempDir
    Path dir;

    private MostCache open(int regions) {
        return MostCache.open(CacheFixture.config(dir, 16, regions).largeItemFrontBytes(64 * 1024).build());
    }

    /** Writes enough other large items that {@code key(0)} is in a sealed region, read from the device. */
    private static void pushOutOfTheOpenRegion(MostCache cache, int from) {
        for (int i = from; i < from + 12; i++) {
            cache.put(key(i), value(i, LARGE));
        }
    }

    @Test
    void anItemCopiedWhenWrittenIsServedWithoutADeviceRead() {
        try (MostCache cache = open(8)) {
            cache.put(key(0), value(0, LARGE)); // the front has room: copied as it is written
            pushOutOfTheOpenRegion(cache, 100);
            long reads = cache.stats().regionDeviceReads();
            for (int i = 0; i < 10; i++) {
                assertArrayEquals(value(0, LARGE), cache.get(key(0)));
            }
            CacheStats stats = cache.stats();
            assertEquals(reads, stats.regionDeviceReads(), "served from the front: " + stats);
            assertEquals(10, stats.frontHits(), stats.toString());
        }
    }

    @Test
    void writesRemovesAndClearsAreSeenThroughTheFront() {
        try (MostCache cache = open(8)) {
            cache.put(key(0), value(0, LARGE));
            pushOutOfTheOpenRegion(cache, 100);
            cache.get(key(0));
            cache.get(key(0)); // admitted
            cache.put(key(0), value(1, LARGE + 1));
            assertArrayEquals(value(1, LARGE + 1), cache.get(key(0)), "the new value, not the front's copy");
            pushOutOfTheOpenRegion(cache, 200);
            cache.get(key(0));
            cache.get(key(0)); // the new value admitted
            assertArrayEquals(value(1, LARGE + 1), cache.get(key(0)));
            assertTrue(cache.stats().frontHits() >= 1, cache.stats().toString());
            cache.put(key(0), value(2, 100)); // now a small item: it leaves the regions
            assertArrayEquals(value(2, 100), cache.get(key(0)));
            cache.put(key(0), value(3, LARGE));
            pushOutOfTheOpenRegion(cache, 300);
            cache.get(key(0));
            cache.get(key(0));
            assertTrue(cache.remove(key(0)));
            assertNull(cache.get(key(0)), "removed, whatever the front held");
            cache.put(key(5), value(5, LARGE));
            pushOutOfTheOpenRegion(cache, 400);
            cache.get(key(5));
            cache.get(key(5));
            cache.clear();
            assertNull(cache.get(key(5)), "cleared");
        }
    }

    @Test
    void aHotItemKeepsBeingServedAcrossReinsertionsAndAColdOneIsEvictedFromTheFrontToo() {
        try (MostCache cache = open(4)) {
            cache.put(key(0), value(0, LARGE));
            cache.put(key(1), value(1, LARGE));
            pushOutOfTheOpenRegion(cache, 100);
            cache.get(key(1));
            cache.get(key(1)); // key 1 in the front, read twice and then never again
            for (int i = 2; i < 200; i++) {
                cache.put(key(1000 + i), value(i, LARGE));
                assertArrayEquals(value(0, LARGE), cache.get(key(0)), "the hot key after " + i + " writes");
            }
            CacheStats stats = cache.stats();
            assertTrue(stats.reinsertions() >= 4, stats.toString());
            assertTrue(stats.frontHits() > 150, "the hot key came from the front: " + stats);
            assertNull(cache.get(key(1)), "evicted from the regions, so gone from the front as well");
        }
    }

    @Test
    void aFrontNeedsLargeItemsAndAPositiveSize() {
        assertThrows(ConfigurationException.class,
                () -> CacheFixture.config(dir, 16, 4).largeItemBytes(0).largeItemFrontBytes(4096).build());
        assertThrows(ConfigurationException.class, () -> CacheFixture.config(dir, 16, 4).largeItemFrontBytes(-1).build());
    }

    @Test
    void aWriterReadsItsOwnLatestValueWhileReadersKeepAdmittingCopies() throws Exception {
        int keysPerWriter = 8;
        int rounds = 300;
        try (MostCache cache = open(8); java.util.concurrent.ExecutorService pool =
                java.util.concurrent.Executors.newFixedThreadPool(4)) {
            java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.List<java.util.concurrent.Future<?>> writers = new java.util.ArrayList<>();
            java.util.List<java.util.concurrent.Future<?>> readers = new java.util.ArrayList<>();
            for (int w = 0; w < 2; w++) {
                int base = w * keysPerWriter;
                writers.add(pool.submit(() -> {
                    for (int round = 0; round < rounds; round++) {
                        for (int k = base; k < base + keysPerWriter; k++) {
                            // only this thread writes key k: after its put, its get must see exactly this round
                            long evictions = cache.stats().evictions();
                            cache.put(key(k), versioned(k, round));
                            byte[] v = cache.get(key(k));
                            if (v == null) {
                                // the other threads can run the ring round between this put and get
                                assertTrue(cache.stats().evictions() > evictions, "key " + k + " round " + round
                                        + " is gone only if evicted meanwhile: " + cache.stats());
                            } else {
                                assertArrayEquals(versioned(k, round), v, "key " + k + " round " + round);
                            }
                        }
                    }
                    return null;
                }));
            }
            for (int r = 0; r < 2; r++) {
                readers.add(pool.submit(() -> {
                    while (!done.get()) {
                        for (int k = 0; k < 2 * keysPerWriter; k++) {
                            byte[] v = cache.get(key(k));
                            if (v != null) {
                                assertEquals(k, java.nio.ByteBuffer.wrap(v).getInt(), "a value of another key");
                            }
                        }
                    }
                    return null;
                }));
            }
            try {
                for (java.util.concurrent.Future<?> f : writers) {
                    f.get();
                }
            } finally {
                done.set(true);
            }
            for (java.util.concurrent.Future<?> f : readers) {
                f.get();
            }
            for (int k = 0; k < 2 * keysPerWriter; k++) {
                // a writer that finished first leaves its keys to age in the ring while the other goes on:
                // the ring may evict them, but a value read is the last one written, never an older copy
                byte[] v = cache.get(key(k));
                if (v == null) {
                    assertTrue(cache.stats().evictions() > 0, "key " + k + " is gone only if evicted: " + cache.stats());
                } else {
                    assertArrayEquals(versioned(k, rounds - 1), v, "key " + k + " after the run");
                }
            }
        }
    }

    /** A large value of key {@code k} at {@code round}: the key number, then bytes of the round. */
    private static byte[] versioned(int k, int round) {
        byte[] v = value(round * 1000L + k, LARGE);
        java.nio.ByteBuffer.wrap(v).putInt(k);
        return v;
    }

    @Test
    void aViewOfAFrontHitSharesTheFrontsBytesAndCannotChangeThem() {
        try (MostCache cache = open(8)) {
            cache.put(key(0), value(0, LARGE)); // copied into the front as it is written
            pushOutOfTheOpenRegion(cache, 100);
            long reads = cache.stats().regionDeviceReads();
            ByteBuffer first = cache.getView(key(0));
            ByteBuffer second = cache.getView(key(0));
            assertEquals(reads, cache.stats().regionDeviceReads(), "both served from the front");
            assertTrue(first.isReadOnly(), "a caller cannot write into the front");
            assertThrows(ReadOnlyBufferException.class, () -> first.put(0, (byte) 1));
            assertArrayEquals(value(0, LARGE), bytes(first));
            assertArrayEquals(value(0, LARGE), bytes(second));
            cache.put(key(0), value(1, LARGE));
            assertArrayEquals(value(0, LARGE), bytes(first), "a later write replaces the front's copy, never changes it");
            assertArrayEquals(value(1, LARGE), bytes(cache.getView(key(0))));
            byte[] copy = cache.get(key(0));
            copy[0] ^= 1;
            assertArrayEquals(value(1, LARGE), cache.get(key(0)), "get returns a copy the caller may change");
        }
    }

    @Test
    void theReadThatAdmitsAValueHandsOutNothingThatCanChangeTheFrontsCopy() {
        // a front of one item, full of another key's value: key 0 is admitted only by its second device read
        try (MostCache cache = MostCache.open(CacheFixture.config(dir, 16, 8).largeItemFrontBytes(LARGE + 200).build())) {
            cache.put(key(1), value(1, LARGE)); // copied as it is written: the front was empty
            pushOutOfTheOpenRegion(cache, 100);
            for (int i = 0; i < 3; i++) {
                cache.get(key(1)); // read more than key 0 so far: key 0's write does not displace it
            }
            cache.put(key(0), value(0, LARGE));
            pushOutOfTheOpenRegion(cache, 200);
            pushOutOfTheOpenRegion(cache, 300); // nor in the region being sealed: read from the device
            long frontHits = cache.stats().frontHits();
            long deviceReads = cache.stats().regionDeviceReads();
            for (int i = 0; i < 8; i++) {
                byte[] copy = cache.get(key(0));
                assertArrayEquals(value(0, LARGE), copy, "read " + i);
                copy[0] ^= 1; // the caller's own array
                ByteBuffer view = cache.getView(key(0));
                assertTrue(view.isReadOnly(), "read " + i);
                assertArrayEquals(value(0, LARGE), bytes(view), "read " + i);
            }
            assertTrue(cache.stats().regionDeviceReads() > deviceReads, "key 0 read from the device: " + cache.stats());
            assertTrue(cache.stats().frontHits() > frontHits, "key 0 admitted by a device read: " + cache.stats());
        }
    }

    @Test
    void viewsOfSmallAndDeviceReadItemsAreReadOnlyCopiesAndMissesAreNull() {
        try (MostCache cache = MostCache.open(CacheFixture.config(dir, 16, 8).build())) { // no front
            cache.put(key(1), value(1, 100));
            cache.put(key(0), value(0, LARGE));
            pushOutOfTheOpenRegion(cache, 100);
            ByteBuffer small = cache.getView(key(1));
            ByteBuffer large = cache.getView(key(0));
            assertTrue(small.isReadOnly() && large.isReadOnly());
            assertArrayEquals(value(1, 100), bytes(small));
            assertArrayEquals(value(0, LARGE), bytes(large));
            assertNull(cache.getView(key(2)));
            assertEquals(2, cache.stats().hits(), cache.stats().toString());
            assertEquals(1, cache.stats().misses(), cache.stats().toString());
        }
    }

    @Test
    void aCodecDecodingAFrontHitGetsAReadOnlySegment() {
        try (MostCache cache = open(8)) {
            cache.put(key(0), value(0, LARGE));
            pushOutOfTheOpenRegion(cache, 100);
            // ValueCodecs.BYTES, but faulty: its decode writes into what it reads
            ValueCodec<byte[]> writing = new ValueCodec<>() {
                @Override
                public int encodedSize(byte[] value) {
                    return ValueCodecs.BYTES.encodedSize(value);
                }

                @Override
                public void encode(byte[] value, MemorySegment target) {
                    ValueCodecs.BYTES.encode(value, target);
                }

                @Override
                public byte[] decode(MemorySegment source) {
                    source.set(ValueLayout.JAVA_BYTE, 0, (byte) 7);
                    return ValueCodecs.BYTES.decode(source);
                }
            };
            assertThrows(IllegalArgumentException.class, () -> cache.get(key(0), writing));
            assertEquals(1, cache.stats().frontHits(), "the codec ran on the front's copy");
            assertArrayEquals(value(0, LARGE), cache.get(key(0)), "the front's copy is unchanged");
        }
    }

    private static byte[] bytes(ByteBuffer view) {
        byte[] out = new byte[view.remaining()];
        view.duplicate().get(out);
        return out;
    }
}
