package io.most.kafka.streams;

import io.most.PageStoreStats;
import io.most.kv.SingleWriterKvStore;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.StreamsMetrics;
import org.apache.kafka.streams.processor.internals.metrics.StreamsMetricsImpl;

/**
 * The meters of one open MOST store, registered in Kafka Streams' own metrics registry as Kafka's
 * RocksDB stores register their property gauges: group {@code stream-state-metrics}, tags
 * {@code thread-id}, {@code task-id} and {@code most-state-id} (the store's name). They are read through
 * {@code KafkaStreams.metrics()}, JMX, any {@code metric.reporters}, and Micrometer's
 * {@code KafkaStreamsMetrics} binder (which makes the {@code -total} ones counters), so the store needs
 * no Micrometer of its own.
 *
 * <p>Cumulative meters count since the store was opened (a task moved back starts again from zero, as
 * RocksDB's do). The budget meters are the application instance's, the same on every store of it (as
 * RocksDB reports a shared block cache's usage on every store that shares it).
 *
 * <p><b>Why the internal {@link StreamsMetricsImpl}:</b> the public {@link StreamsMetrics} of Kafka
 * Streams 4.4 adds sensors only, which record values pushed to them; a gauge read when the registry is
 * read (what a page store's counters are) is registered only through the internal class, which is what
 * Kafka's own stores use. A context whose metrics are another implementation (a hand-written test
 * context) gets no meters.
 *
 * <p><b>Threads.</b> Gauges are read by reporter threads while the stream thread writes and may close
 * the store: a read and {@link #remove} exclude each other, and the store is closed only after
 * {@link #remove}, so no read touches a closed store. One snapshot serves every gauge read within
 * {@link #CACHE_NANOS} (a snapshot walks the store's DRAM frames).
 */
final class StoreMetrics {
    static final String DRAM_BYTES = "dram-bytes";
    static final String DRAM_SHARE_BYTES = "dram-share-bytes";
    static final String PAGE_HITS = "page-hits-total";
    static final String PAGE_MISSES = "page-misses-total";
    static final String DEVICE_BYTES_READ = "device-bytes-read-total";
    static final String DEVICE_BYTES_WRITTEN = "device-bytes-written-total";
    static final String JOURNAL_BYTES_WRITTEN = "journal-bytes-written-total";
    static final String BUDGET_BYTES = "dram-budget-bytes";
    static final String BUDGET_USED_BYTES = "dram-budget-used-bytes";
    static final String BUDGET_STORES_BEYOND_SHARES = "dram-budget-stores-beyond-shares";

    private static final long CACHE_NANOS = 100_000_000;

    private final StreamsMetricsImpl metrics;
    private final SingleWriterKvStore store;
    private final long pageSize;
    private final List<MetricName> names = new ArrayList<>();
    private PageStoreStats cached;
    private long cachedAt;
    private boolean removed;

    private StoreMetrics(StreamsMetricsImpl metrics, SingleWriterKvStore store, long pageSize) {
        this.metrics = metrics;
        this.store = store;
        this.pageSize = pageSize;
    }

    /**
     * Registers the meters of {@code store}, opened by the task {@code taskId} with {@code pageSize}-byte
     * pages and {@code grant} of {@code budget}; null if {@code streamsMetrics} is not Kafka Streams' own.
     * Must run on the thread that initializes the store (its name is the {@code thread-id} tag).
     */
    static StoreMetrics register(StreamsMetrics streamsMetrics, String taskId, String storeName, SingleWriterKvStore store,
                                 long pageSize, MemoryBudget.Grant grant) {
        if (!(streamsMetrics instanceof StreamsMetricsImpl impl)) {
            return null;
        }
        StoreMetrics m = new StoreMetrics(impl, store, pageSize);
        String scope = MostKeyValueBytesStoreSupplier.METRICS_SCOPE;
        MemoryBudget budget = grant.budget();
        m.stat(taskId, scope, storeName, DRAM_BYTES, "bytes of this store's pages in DRAM now",
                s -> s.dramFramesUsed() * pageSize);
        m.add(taskId, scope, storeName, DRAM_SHARE_BYTES, "the DRAM this store may use: its share of "
                + MostStreamsConfig.DRAM + " (or the minimum, when every share was held at its init)", grant::bytes);
        m.stat(taskId, scope, storeName, PAGE_HITS, "page accesses served from DRAM or PM since the store opened",
                s -> s.dramHits() + s.pmHits());
        m.stat(taskId, scope, storeName, PAGE_MISSES, "page accesses that read the store's file since it opened",
                PageStoreStats::misses);
        m.stat(taskId, scope, storeName, DEVICE_BYTES_READ, "bytes of pages read from the store's data file since"
                + " it opened", s -> s.ssdReads() * pageSize);
        m.stat(taskId, scope, storeName, DEVICE_BYTES_WRITTEN, "bytes of pages written to the store's data file"
                + " since it opened (the rollback journal's before-images are not counted)", s -> s.ssdWrites() * pageSize);
        m.add(taskId, scope, storeName, JOURNAL_BYTES_WRITTEN, "bytes written to the store's rollback journal since"
                + " it opened: one before-image per page changed per checkpoint interval", store::journalBytesWritten);
        m.add(taskId, scope, storeName, BUDGET_BYTES, "the DRAM budget " + MostStreamsConfig.DRAM + " all MOST"
                + " stores of this application instance share", budget::budgetBytes);
        m.add(taskId, scope, storeName, BUDGET_USED_BYTES, "DRAM granted to the open MOST stores of this"
                + " application instance", budget::grantedBytes);
        m.add(taskId, scope, storeName, BUDGET_STORES_BEYOND_SHARES, "open MOST stores of this application"
                + " instance running beyond the budget's shares (raise " + MostStreamsConfig.SLOTS + ")",
                () -> budget.overflow());
        return m;
    }

    private void stat(String taskId, String scope, String storeName, String name, String description,
                      ToLongFunction<PageStoreStats> value) {
        add(taskId, scope, storeName, name, description, () -> {
            PageStoreStats s = snapshot();
            return s == null ? 0 : value.applyAsLong(s);
        });
    }

    private void add(String taskId, String scope, String storeName, String name, String description,
                     LongSupplier value) {
        Gauge<Long> gauge = (config, now) -> value.getAsLong();
        names.add(metrics.addStoreLevelMutableMetric(taskId, scope, storeName, name, description,
                Sensor.RecordingLevel.INFO, gauge));
    }

    /** The store's counters, at most {@link #CACHE_NANOS} old; the last ones once removed. */
    private synchronized PageStoreStats snapshot() {
        long now = System.nanoTime();
        if (!removed && (cached == null || now - cachedAt > CACHE_NANOS)) {
            cached = store.stats();
            cachedAt = now;
        }
        return cached;
    }

    /**
     * Unregisters the meters; call before closing the store. Once it returns no gauge reads the store;
     * the registry is called outside this object's lock, so a reporter holding the registry's lock
     * while reading a gauge cannot deadlock against it.
     */
    void remove() {
        List<MetricName> registered;
        synchronized (this) {
            removed = true;
            registered = List.copyOf(names);
            names.clear();
        }
        for (MetricName n : registered) {
            metrics.removeStoreLevelMetric(n);
        }
    }
}
