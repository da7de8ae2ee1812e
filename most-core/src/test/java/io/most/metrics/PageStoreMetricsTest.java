package io.most.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.most.MigrationPolicy;
import io.most.Page;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.device.MemoryDevice;
import org.junit.jupiter.api.Test;

class PageStoreMetricsTest {

    @Test
    void publishesHitsMigrationsAndPolicy() throws InterruptedException {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (PageStore store = PageStore.open(PageStoreConfig.builder().blockDevice(new MemoryDevice(1 << 22))
                .pageSize(4096).dramBytes(16 * 4096).policy(MigrationPolicy.eager()).build())) {
            new PageStoreMetrics(store, "orders").bindTo(registry);
            long[] ids = new long[40];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = store.allocate();
            }
            for (long id : ids) {
                try (Page page = store.read(id)) {
                    assertEquals(0, page.payload().get(java.lang.foreign.ValueLayout.JAVA_INT, 0));
                }
            }
            System.gc(); // the registry must keep the binder (the test holds no reference to it)
            Thread.sleep(150); // let the binder's 100 ms snapshot cache expire
            double dramHits = registry.get("most.buffer.hits").tags("store", "orders", "tier", "dram").functionCounter().count();
            double misses = registry.get("most.buffer.misses").tags("store", "orders").functionCounter().count();
            assertEquals(40.0, dramHits + misses);
            assertTrue(registry.get("most.buffer.migrations").tags("path", "ssd-to-dram").functionCounter().count() > 0);
            assertEquals(1.0, registry.get("most.buffer.policy").tags("param", "dr").gauge().value());
            assertEquals(16.0, registry.get("most.buffer.frames.used").tags("tier", "dram").gauge().value());
        }
    }

    /** The PM write counters split every PM write into line updates, whole pages and clean installs. */
    @Test
    void splitsPmWritesByHowTheyPersisted(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws InterruptedException {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (PageStore store = PageStore.open(PageStoreConfig.builder().blockDevice(new MemoryDevice(1 << 22))
                .pageSize(4096).dramBytes(PageStoreConfig.MIN_DRAM_FRAMES * 4096L)
                .pm(dir.resolve("pm.dat"), 64 * 4096L).policy(MigrationPolicy.of(0, 0, 1, 1)).build())) {
            new PageStoreMetrics(store, "pm").bindTo(registry);
            long[] ids = new long[200]; // more than DRAM and PM hold: dirty DRAM pages go to PM, PM pages to SSD
            for (int i = 0; i < ids.length; i++) {
                ids[i] = store.allocate();
                try (Page page = store.write(ids[i])) {
                    page.payload().set(java.lang.foreign.ValueLayout.JAVA_INT, 0, i);
                    page.markDirty(1);
                }
            }
            for (long id : ids) {
                store.read(id).close(); // misses install pages into PM (Nr = 1)
            }
            System.gc();
            Thread.sleep(150);
            io.most.PageStoreStats s = store.stats();
            assertTrue(s.pmInstalls() > 0 && s.pmWholePageWriteBacks() > 0, s.toString());
            assertEquals(s.pmWrites(), s.pmLineUpdates() + s.pmWholePageWrites() + s.pmWholePageWriteBacks()
                    + s.pmInstalls(), "every PM write counted once: " + s);
            assertEquals(s.pmInstalls(), registry.get("most.buffer.pm.installs").functionCounter().count());
            assertEquals(s.pmWholePageWriteBacks(), registry.get("most.buffer.pm.whole.page.writes")
                    .tags("source", "dram").functionCounter().count());
        }
    }
}
