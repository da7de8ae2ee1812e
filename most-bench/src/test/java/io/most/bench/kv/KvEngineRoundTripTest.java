package io.most.bench.kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.bench.Layer;
import io.most.bench.hierarchy.Hierarchies;
import io.most.bench.hierarchy.Hierarchy;
import io.most.bench.hierarchy.OpenHierarchy;
import io.most.bench.hierarchy.PageHierarchy;
import io.most.bench.hierarchy.PageTarget;
import io.most.bench.hierarchy.PmChoice;
import io.most.bench.policy.Policies;
import io.most.bench.policy.Policy;
import io.most.bench.workload.ycsb.YcsbKeys;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every engine against a reference map on a small data set whose DRAM budget holds a fraction of it,
 * so caches evict and reload: load, read, update, read-modify-write, inserts (enough to grow the
 * hashed engines' overflow chains), scans, and absent keys.
 */
class KvEngineRoundTripTest {
    private static final int PAGE_SIZE = 16 * 1024;
    /** The smallest DRAM pool a page store takes: 16 pages. */
    private static final long DRAM_PAGES = 16;
    private static final int RECORDS = 3000;
    private static final RecordFormat FORMAT = RecordFormat.YCSB_DEFAULT;

    @TempDir
    Path dir;

    /**
     * Engines whose pages have {@code --block-size} bytes run with YCSB's default (4 KiB, three 1000-byte
     * records per page) and with Spitfire's 16 KiB; the others do not depend on it.
     */
    @ParameterizedTest(name = "{0}, {1}-byte pages")
    @CsvSource({"most, 4096", "most, 16384", "oltp-kv, 4096", "oltp-kv, 16384", "caffeine-pagecache, 4096",
            "caffeine-pagecache, 16384", "h2-most, 4096", "h2-most, 16384", "h2-most-device, 4096",
            "h2-most-device, 16384", "h2-mvstore, 4096", "ehcache, 4096", "rocksdb, 4096", "rocksdb-buffered, 4096"})
    void engineAgreesWithAReferenceMap(String name, int pageSize) {
        KvDataset data = new KvDataset(RECORDS, FORMAT, 42);
        try (Opened opened = open(name, data, pageSize)) {
            KvEngine engine = opened.engine;
            engine.load(data);
            TreeMap<String, byte[]> reference = new TreeMap<>();
            for (long i = 0; i < RECORDS; i++) {
                byte[] value = new byte[FORMAT.recordBytes()];
                data.value(i, value);
                reference.put(data.key(i), value);
            }
            checkAll(engine, reference);
            byte[] into = new byte[FORMAT.recordBytes()];
            assertFalse(engine.read("user-absent", into));
            assertFalse(engine.update("user-absent", 0, new byte[FORMAT.fieldLength()]));
            assertFalse(engine.readModifyWrite("user-absent", into, 0, new byte[FORMAT.fieldLength()]));

            SplittableRandom random = new SplittableRandom(7);
            List<String> keys = new ArrayList<>(reference.keySet());
            for (int i = 0; i < 2000; i++) {
                String key = keys.get(random.nextInt(keys.size()));
                int offset = FORMAT.fieldOffset(random.nextInt(FORMAT.fields()));
                byte[] field = new byte[FORMAT.fieldLength()];
                RecordFormat.randomValue(random, field);
                if (random.nextBoolean()) {
                    assertTrue(engine.update(key, offset, field), key);
                } else {
                    assertTrue(engine.readModifyWrite(key, into, offset, field), key);
                    assertArrayEquals(reference.get(key), into, "read-modify-write read " + key);
                }
                System.arraycopy(field, 0, reference.get(key), offset, field.length);
            }
            for (long k = RECORDS; k < 2L * RECORDS; k++) {
                byte[] record = new byte[FORMAT.recordBytes()];
                RecordFormat.randomValue(random, record);
                engine.insert(YcsbKeys.name(k), record);
                reference.put(YcsbKeys.name(k), record.clone());
            }
            checkAll(engine, reference);
            for (int i = 0; i < 300; i++) {
                String start = i % 3 == 0 ? "user" + random.nextLong(Long.MAX_VALUE) : keys.get(random.nextInt(keys.size()));
                int count = 1 + random.nextInt(100);
                checkScan(engine, reference, start, count);
            }
            checkScan(engine, reference, "user", 100); // before every key
            checkScan(engine, reference, "z", 10);     // after every key
            assertFalse(engine.describe().isEmpty());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2-most", "h2-most-device"})
    void h2OnMostGetsADeviceForMvStoresGrowthAndReportsItsUse(String name) {
        KvDataset data = new KvDataset(RECORDS, FORMAT, 42);
        KvEngineType type = KvEngines.registry().get(name);
        long device = type.deviceBytes(data, PAGE_SIZE);
        assertEquals(0, device % PAGE_SIZE);
        assertTrue(device >= H2MostEngines.FILE_GROWTH_BOUND * data.bytes(), device + " bytes for " + data.bytes());
        assertTrue(device > KvEngines.registry().get("most").deviceBytes(data, PAGE_SIZE));
        try (Opened opened = open(name, data, PAGE_SIZE)) {
            opened.engine.load(data);
            Map<String, Object> config = opened.engine.describe();
            assertEquals(H2MostEngines.RETENTION_MS, config.get("retention_ms"));
            long used = (Long) config.get("volume_used_bytes");
            long peak = (Long) config.get("volume_peak_used_bytes");
            assertTrue(used > (Long) config.get("file_bytes") / 2, used + " bytes in use for " + config.get("file_bytes"));
            assertTrue(peak >= used, "peak " + peak + " < used " + used);
            assertTrue(peak <= device, "peak " + peak + " > device " + device);
        }
    }

    private static void checkAll(KvEngine engine, TreeMap<String, byte[]> reference) {
        byte[] into = new byte[FORMAT.recordBytes()];
        for (Map.Entry<String, byte[]> e : reference.entrySet()) {
            assertTrue(engine.read(e.getKey(), into), e.getKey());
            assertArrayEquals(e.getValue(), into, e.getKey());
        }
    }

    private static void checkScan(KvEngine engine, TreeMap<String, byte[]> reference, String start, int count) {
        List<String> expected = reference.tailMap(start, true).keySet().stream().limit(count).toList();
        List<String> seen = new ArrayList<>();
        int visited = engine.scan(start, count, (key, record) -> {
            seen.add(key);
            assertArrayEquals(reference.get(key), record.length == FORMAT.recordBytes() ? record
                    : java.util.Arrays.copyOf(record, FORMAT.recordBytes()), key);
        });
        assertEquals(expected, seen, "scan from " + start);
        assertEquals(expected.size(), visited);
    }

    private Opened open(String name, KvDataset data, int pageSize) {
        KvEngineType type = KvEngines.registry().get(name);
        long dram = DRAM_PAGES * pageSize;
        if (!type.usesPageStore()) {
            return new Opened(type.open(new KvSetup(dir, dram, pageSize, data, true, Optional.empty())), null, null);
        }
        PageHierarchy hierarchy = (PageHierarchy) Hierarchies.registry().get("dram-ssd");
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        OpenHierarchy open = hierarchy.open(new Hierarchy.Options(type.deviceBytes(data, pageSize), pageSize, dir,
                OptionalLong.of(dram), OptionalLong.empty(), PmChoice.defaultProfile()), quiet);
        Policy.Target<PageTarget> target = Policies.get(Layer.PAGE, "spitfire-lazy")
                .attach(open, new Policy.Settings(Duration.ofSeconds(1)));
        KvEngine engine = type.open(new KvSetup(dir, dram, pageSize, data, true, Optional.of(target.target())));
        return new Opened(engine, target, open);
    }

    /** An engine and, for {@code most}, the page store under it. */
    private record Opened(KvEngine engine, Policy.Target<PageTarget> target, OpenHierarchy hierarchy)
            implements AutoCloseable {
        @Override
        public void close() {
            engine.close();
            if (target != null) {
                target.close();
                hierarchy.close();
            }
        }
    }
}
