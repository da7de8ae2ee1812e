package io.most.kafka.streams;

import java.util.Map;
import org.apache.kafka.common.config.ConfigException;

/**
 * The MOST settings of a Kafka Streams application, read from its {@code StreamsConfig} properties
 * (Kafka Streams hands unknown properties to stores unchanged). Only {@link #DRAM} is usually set.
 *
 * @param dramBytes    {@value #DRAM}: the DRAM every MOST store of this application instance shares
 * @param slots        {@value #SLOTS}: how many stores the budget is divided among
 * @param pageSize     {@value #PAGE_SIZE}: the page size of new stores
 * @param maxKeySize   {@value #MAX_KEY_SIZE}: the longest key of new stores
 * @param storeBytes   {@value #STORE_BYTES}: the capacity of each store's data file
 * @param checkpointIntervalMs {@value #CHECKPOINT_INTERVAL_MS}: the longest a commit waits for a checkpoint
 * @param checkpointBytes      {@value #CHECKPOINT_BYTES}: the changed pages that make a commit checkpoint at once
 */
record MostStreamsConfig(long dramBytes, int slots, int pageSize, int maxKeySize, long storeBytes,
                         long checkpointIntervalMs, long checkpointBytes) {
    /** The DRAM budget of all MOST stores of one application instance, in bytes (default 256 MiB). */
    static final String DRAM = "most.streams.dram";
    /**
     * Into how many equal shares the budget is divided (default 16): each open store takes one; a store
     * opened while all are taken gets the minimum ({@link MemoryBudget#MIN_PAGES} pages) and a warning.
     */
    static final String SLOTS = "most.streams.dram.slots";
    /** Page size of new stores (default 16 KiB): values may take up to about a quarter of it. */
    static final String PAGE_SIZE = "most.streams.page.size";
    /** Longest key of new stores (default 512 bytes). */
    static final String MAX_KEY_SIZE = "most.streams.max.key.size";
    /** Capacity of each store's data file (default 8 GiB; the file grows as pages are written). */
    static final String STORE_BYTES = "most.streams.store.bytes";

    /**
     * How long after its last checkpoint a store still answers a commit of changelog offsets by only
     * remembering them (default 10 s; 0: every commit checkpoints). A checkpoint writes every page changed
     * since the last one (its before-image went to the journal at the first change), so checkpointing
     * each of exactly-once's 100 ms commits writes each changed page twice per commit; a crash replays
     * the changelog after the last checkpoint instead, so this bounds that replay. Commits that clear the
     * offsets, and commits of a store without a changelog, always checkpoint.
     */
    static final String CHECKPOINT_INTERVAL_MS = "most.streams.checkpoint.interval.ms";
    /**
     * How many bytes of pages changed since the last checkpoint make the next commit of offsets
     * checkpoint at once, whatever the interval (default 64 MiB): the bound on the rollback journal,
     * on the checkpoint's burst of writes and on the pages a crash rolls back.
     */
    static final String CHECKPOINT_BYTES = "most.streams.checkpoint.bytes";

    static MostStreamsConfig from(Map<String, Object> configs) {
        return new MostStreamsConfig(
                positive(configs, DRAM, 256L << 20),
                (int) positive(configs, SLOTS, 16),
                (int) positive(configs, PAGE_SIZE, 16 * 1024),
                (int) positive(configs, MAX_KEY_SIZE, 512),
                positive(configs, STORE_BYTES, 8L << 30),
                number(configs, CHECKPOINT_INTERVAL_MS, 10_000, 0,
                        "a number of milliseconds (e.g. 10000; 0 checkpoints every commit)"),
                positive(configs, CHECKPOINT_BYTES, 64L << 20));
    }

    private static long positive(Map<String, Object> configs, String name, long fallback) {
        return number(configs, name, fallback, 1, "a whole number of bytes (e.g. 536870912)");
    }

    private static long number(Map<String, Object> configs, String name, long fallback, long min, String what) {
        Object v = configs.get(name);
        if (v == null) {
            return fallback;
        }
        long n;
        try {
            n = v instanceof Number num ? num.longValue() : Long.parseLong(v.toString().trim());
        } catch (NumberFormatException e) {
            throw new ConfigException(name, v, "must be " + what);
        }
        if (n < min) {
            throw new ConfigException(name, v, min == 0 ? "must not be negative" : "must be positive");
        }
        return n;
    }
}
