package io.most.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsMetrics;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store's meters in Kafka Streams' metrics registry, on a store four times larger than its DRAM: pages
 * are evicted to the file and read back, so every counter moves; the meters go when the store closes.
 */
class StoreMetricsTest {
    private static final int ENTRIES = 4000;

    @TempDir
    Path stateDir;

    /** The store's meters by name (group {@code stream-state-metrics}, tag {@code most-state-id}). */
    private static Map<String, Double> meters(StreamsMetrics metrics, String store) {
        Map<String, Double> m = new HashMap<>();
        metrics.metrics().forEach((name, metric) -> {
            if (name.group().equals("stream-state-metrics") && store.equals(name.tags().get("most-state-id"))) {
                assertEquals("0_0", name.tags().get("task-id"));
                m.put(name.name(), ((Number) metric.metricValue()).doubleValue());
            }
        });
        return m;
    }

    @Test
    void countersMoveAsPagesLeaveAndReenterDram() {
        MostKeyValueStore store = new MostKeyValueStore("metered");
        // 16 shares of 64 pages of 4 KiB: the store runs with 256 KiB
        long share = (long) MemoryBudget.MIN_PAGES * 4096;
        StateStoreContext context = StoreContexts.init(store, stateDir, 16 * share);
        try {
            byte[] value = new byte[240];
            for (int i = 0; i < ENTRIES; i++) {
                store.put(key(i), value);
            }
            long read = 0;
            for (int i = 0; i < ENTRIES; i += 3) {
                read += store.get(key(i)).length;
            }
            try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
                while (it.hasNext()) {
                    read += it.next().value.length;
                }
            }
            assertTrue(read > 4 * share, "the test reads " + read + " bytes through a " + share + "-byte share");

            Map<String, Double> m = meters(context.metrics(), "metered");
            assertEquals(10, m.size(), m.toString());
            assertEquals(share, m.get(StoreMetrics.DRAM_SHARE_BYTES), m.toString());
            assertTrue(m.get(StoreMetrics.DRAM_BYTES) > 0 && m.get(StoreMetrics.DRAM_BYTES) <= share, m.toString());
            assertTrue(m.get(StoreMetrics.PAGE_HITS) > 0, m.toString());
            assertTrue(m.get(StoreMetrics.PAGE_MISSES) > 0, "the data is four times the DRAM: " + m);
            assertTrue(m.get(StoreMetrics.DEVICE_BYTES_READ) >= m.get(StoreMetrics.PAGE_MISSES) * 4096, m.toString());
            assertTrue(m.get(StoreMetrics.DEVICE_BYTES_WRITTEN) >= 4 * share, "evicted pages were written: " + m);
            // a new store's pages are new since its last checkpoint: each journaled as an allocation, no image
            double pagesWritten = m.get(StoreMetrics.DEVICE_BYTES_WRITTEN) / 4096;
            assertTrue(m.get(StoreMetrics.JOURNAL_BYTES_WRITTEN) >= 17 * pagesWritten / 2, "the allocations of the"
                    + " written pages: " + m);
            assertEquals(16 * share, m.get(StoreMetrics.BUDGET_BYTES), m.toString());
            assertEquals(share, m.get(StoreMetrics.BUDGET_USED_BYTES), "one store holds one share: " + m);
            assertEquals(0, m.get(StoreMetrics.BUDGET_STORES_BEYOND_SHARES), m.toString());
        } finally {
            store.close();
        }
        assertEquals(Map.of(), meters(context.metrics(), "metered"), "a closed store's meters are gone");
    }

    private static Bytes key(int i) {
        return Bytes.wrap(String.format("key-%06d", i).getBytes(StandardCharsets.US_ASCII));
    }
}
