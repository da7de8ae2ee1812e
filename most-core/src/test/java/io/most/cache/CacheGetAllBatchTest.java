package io.most.cache;

import static io.most.cache.CacheFixture.key;
import static io.most.cache.CacheFixture.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.BlockDevice;
import io.most.device.FaultyDevice;
import io.most.device.IoOp;
import io.most.device.MemoryDevice;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link MostCache#getAll} reads the keys' bucket pages with one batch of device reads. */
class CacheGetAllBatchTest {
    private static final int BUCKETS = 256;
    private static final int KEYS = 32;

    /** DRAM enough that the page frames, a quarter of which a device batch may take, hold all the keys. */
    private static CacheConfig config(BlockDevice small) {
        return CacheConfig.builder().smallItemDevice(small).pageSize(CacheFixture.PAGE)
                .dramBytes(1024L * CacheFixture.PAGE).smallItemBytes((long) BUCKETS * CacheFixture.PAGE)
                .largeItemBytes(0).maxKeyBytes(64).build();
    }

    /** Keys 0..KEYS-1 with values, closed cleanly: the next open starts with no bucket page buffered. */
    private static void fill(BlockDevice small) {
        try (MostCache cache = MostCache.open(config(small))) {
            for (int i = 0; i < KEYS; i++) {
                cache.put(key(i), value(i, 100));
            }
        }
    }

    /** A device holding keys 0..KEYS-1, with faults to inject under the cache. */
    private static FaultyDevice filledFaulty() {
        CountingDevice counting = CountingDevice.keepingOpen(new MemoryDevice(HybridCache.smallDeviceBytes(BUCKETS + 1,
                CacheFixture.PAGE)));
        fill(counting);
        return new FaultyDevice(counting);
    }

    private static List<byte[]> keysWithAbsentOnes() {
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < KEYS; i++) {
            keys.add(key(i));
            if (i % 4 == 0) {
                keys.add(key(1000 + i)); // never put
            }
        }
        return keys;
    }

    @Test
    void aGetAllOfColdKeysReadsTheirPagesInOneBatchAndAnswersAsGetsDo() {
        CountingDevice small = CountingDevice.keepingOpen(new MemoryDevice(HybridCache.smallDeviceBytes(BUCKETS + 1,
                CacheFixture.PAGE)));
        fill(small);
        List<byte[]> keys = keysWithAbsentOnes();
        try (MostCache cache = MostCache.open(config(small))) {
            small.reset();
            List<byte[]> all = cache.getAll(keys);
            assertEquals(1, small.batches(), "one batched device call for the keys' bucket pages");
            assertEquals(0, small.singleReads(), "no page was read on its own after the batch");
            assertTrue(small.reads() >= KEYS / 2, "the cold pages were in the batch: "
                    + small.reads());
            assertEquals(keys.size(), all.size());
            for (int i = 0; i < keys.size(); i++) {
                assertArrayEquals(cache.get(keys.get(i)), all.get(i), "getAll answers key " + i + " as get does");
            }
            for (int i = 0, k = 0; i < KEYS; i++, k++) {
                assertArrayEquals(value(i, 100), all.get(k), "key " + i);
                if (i % 4 == 0) {
                    assertNull(all.get(++k), "an absent key misses");
                }
            }
            small.reset();
            cache.getAll(keys);
            assertEquals(0, small.reads(), "warm pages need no device read");
        }
    }

    @Test
    void aPageWhoseBatchedReadFailsIsReadAgainByItsKeysGetAsASingleGetWould() {
        FaultyDevice faulty = filledFaulty();
        List<byte[]> keys = keysWithAbsentOnes();
        try (MostCache cache = MostCache.open(config(faulty))) {
            faulty.failNext(IoOp.READ, 1); // one page of the batch fails once
            List<byte[]> all = cache.getAll(keys);
            for (int i = 0; i < keys.size(); i++) {
                byte[] k = keys.get(i);
                String name = new String(k, java.nio.charset.StandardCharsets.UTF_8);
                long n = Long.parseLong(name.substring(name.indexOf('-') + 1));
                if (n >= 1000) {
                    assertNull(all.get(i), name);
                } else {
                    assertArrayEquals(value(n, 100), all.get(i), "the failed page was read again by its get: " + name);
                }
            }
        }
    }

    @Test
    void aPageThatCannotBeReadFailsTheGetAllAsItsGetFails() {
        FaultyDevice faulty = filledFaulty();
        try (MostCache cache = MostCache.open(config(faulty))) {
            faulty.failRange(IoOp.READ, 0, faulty.capacity());
            RuntimeException single = assertThrows(RuntimeException.class, () -> cache.get(key(3)));
            RuntimeException batch = assertThrows(RuntimeException.class, () -> cache.getAll(List.of(key(3))));
            assertEquals(single.getClass(), batch.getClass(), "the key fails in getAll as in get: " + batch);
            faulty.clear();
            assertArrayEquals(value(3, 100), cache.getAll(List.of(key(3))).getFirst());
        }
    }
}
