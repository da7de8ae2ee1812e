package io.most.bench.kv;

import io.most.bench.workload.ycsb.ScrambledZipfian;
import java.util.SplittableRandom;

/**
 * The shape of a YCSB record: {@code fields} fields of {@code fieldLength} bytes each (YCSB's
 * {@code fieldcount=10}, {@code fieldlength=100}, constant length), stored back to back, so field
 * {@code f} is bytes {@code [f * fieldLength, (f + 1) * fieldLength)} of the record.
 *
 * @param fields      fields per record, at least 1
 * @param fieldLength bytes per field, at least 1
 */
public record RecordFormat(int fields, int fieldLength) {
    public static final int DEFAULT_FIELDS = 10;
    public static final int DEFAULT_FIELD_LENGTH = 100;
    static final RecordFormat YCSB_DEFAULT = new RecordFormat(DEFAULT_FIELDS, DEFAULT_FIELD_LENGTH);

    public RecordFormat {
        if (fields < 1 || fieldLength < 1 || (long) fields * fieldLength > Integer.MAX_VALUE / 2) {
            throw new IllegalArgumentException("a record needs at least one field of at least one byte, got "
                    + fields + " x " + fieldLength);
        }
    }

    /** Bytes per record. */
    public int recordBytes() {
        return fields * fieldLength;
    }

    /** Where field {@code field} starts in the record. */
    public int fieldOffset(int field) {
        return field * fieldLength;
    }

    /**
     * Fills {@code bytes} with random printable ASCII, as YCSB's {@code RandomByteIterator} makes field
     * values.
     */
    public static void randomValue(SplittableRandom random, byte[] bytes) {
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (' ' + random.nextInt(95));
        }
    }

    /**
     * The loaded value of record {@code keynum}: deterministic, so every engine loads the same bytes
     * and tests can check them.
     */
    void loadedValue(long seed, long keynum, byte[] record) {
        randomValue(new SplittableRandom(seed ^ ScrambledZipfian.fnv1a64(keynum)), record);
    }
}
