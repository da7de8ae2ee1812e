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
 */
record MostStreamsConfig(long dramBytes, int slots, int pageSize, int maxKeySize, long storeBytes) {
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

    static MostStreamsConfig from(Map<String, Object> configs) {
        return new MostStreamsConfig(
                positive(configs, DRAM, 256L << 20),
                (int) positive(configs, SLOTS, 16),
                (int) positive(configs, PAGE_SIZE, 16 * 1024),
                (int) positive(configs, MAX_KEY_SIZE, 512),
                positive(configs, STORE_BYTES, 8L << 30));
    }

    private static long positive(Map<String, Object> configs, String name, long fallback) {
        Object v = configs.get(name);
        if (v == null) {
            return fallback;
        }
        long n;
        try {
            n = v instanceof Number num ? num.longValue() : Long.parseLong(v.toString().trim());
        } catch (NumberFormatException e) {
            throw new ConfigException(name, v, "must be a whole number of bytes (e.g. 536870912)");
        }
        if (n <= 0) {
            throw new ConfigException(name, v, "must be positive");
        }
        return n;
    }
}
