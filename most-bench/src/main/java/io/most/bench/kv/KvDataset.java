package io.most.bench.kv;

import io.most.bench.workload.ycsb.YcsbKeys;

/**
 * The records an engine loads before a run: key numbers {@code 0 .. records - 1} with YCSB's keys and
 * deterministic values.
 *
 * @param records how many
 * @param format  their shape
 * @param seed    the seed their values derive from
 */
public record KvDataset(long records, RecordFormat format, long seed) {
    public KvDataset {
        if (records < 3 || records > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("record count must be within 3 .. " + Integer.MAX_VALUE
                    + ", got " + records);
        }
    }

    /** The key of record {@code i}. */
    String key(long i) {
        return YcsbKeys.name(i);
    }

    /** Writes the value of record {@code i} into {@code record} ({@link RecordFormat#recordBytes()} long). */
    void value(long i, byte[] record) {
        format.loadedValue(seed, i, record);
    }

    /** Bytes of keys and values together, for sizing against the DRAM budget. */
    public long bytes() {
        return records * (format.recordBytes() + (long) YcsbKeys.MAX_KEY_LENGTH);
    }
}
