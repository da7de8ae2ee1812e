package io.most.bench.streams;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/**
 * The input topic's records, in three phases: the load (every key once, in a scrambled order, so the
 * state holds every key before anything is measured), the measured records (keys drawn from the
 * distribution) and the tail (more of the same, which the instance is processing when it is killed).
 * A record's value is {@value #VALUE_BYTES} bytes: its phase, its sequence number and filler.
 *
 * @param keys         distinct keys: the state's entries
 * @param measured     records in the measured window
 * @param tail         records after it
 * @param distribution how the measured and tail records pick keys
 * @param theta        the zipfian skew
 * @param seed         the random seed; every engine gets the same records
 */
record InputRecords(long keys, long measured, long tail, KeyDistribution distribution, double theta, long seed) {
    static final byte LOAD = 0;
    static final byte MEASURED = 1;
    static final byte TAIL = 2;
    static final int VALUE_BYTES = 16;
    /**
     * Records written when the killed instance restarts: the tail may be processed and committed before
     * the kill lands (small inputs, fast stores), and the restart is timed to its first processed record.
     */
    static final int RESTART_RECORDS = 1000;
    /** A prime: {@code i * STRIDE mod keys} visits every key once when {@code keys} is not a multiple of it. */
    private static final long STRIDE = 1_000_003L;

    /** One input record, handed to a {@link Sink}. */
    interface Sink {
        void accept(String key, byte[] value);
    }

    InputRecords {
        if (keys < 2 || keys % STRIDE == 0) {
            throw new IllegalArgumentException("keys must be at least 2 and not a multiple of " + STRIDE + ": " + keys);
        }
    }

    /** Every record, load first. */
    void forEach(Sink sink) {
        for (long i = 0; i < keys; i++) {
            sink.accept(key(Math.floorMod(i * STRIDE, keys)), value(LOAD, i));
        }
        SplittableRandom random = new SplittableRandom(seed);
        LongSupplier chooser = distribution.chooser(keys, theta, random);
        for (long i = 0; i < measured + tail; i++) {
            sink.accept(key(chooser.getAsLong()), value(i < measured ? MEASURED : TAIL, keys + i));
        }
    }

    /** The {@link #RESTART_RECORDS} records written for the restart: tail records of another random stream. */
    void forEachRestart(Sink sink) {
        LongSupplier chooser = distribution.chooser(keys, theta, new SplittableRandom(~seed));
        for (long i = 0; i < RESTART_RECORDS; i++) {
            sink.accept(key(chooser.getAsLong()), value(TAIL, total() + i));
        }
    }

    /** Every record of the input topic before the restart. */
    long total() {
        return keys + measured + tail;
    }

    /** The key of index {@code index}: "key" and 9 or more digits, 12 bytes for up to a billion keys. */
    static String key(long index) {
        String digits = Long.toString(index);
        return "key" + "0".repeat(Math.max(0, 9 - digits.length())) + digits;
    }

    /** Bytes of a key in the store (the string serde's UTF-8). */
    static int keyBytes(long keys) {
        return key(keys - 1).getBytes(StandardCharsets.UTF_8).length;
    }

    /** The phase of an input value. */
    static byte phase(byte[] value) {
        return value == null || value.length == 0 ? LOAD : value[0];
    }

    private static byte[] value(byte phase, long sequence) {
        byte[] v = new byte[VALUE_BYTES];
        v[0] = phase;
        long x = sequence;
        for (int i = 1; i <= Long.BYTES; i++) {
            v[i] = (byte) x;
            x >>>= 8;
        }
        long filler = sequence * 0x9E3779B97F4A7C15L;
        for (int i = Long.BYTES + 1; i < VALUE_BYTES; i++) {
            v[i] = (byte) filler;
            filler >>>= 8;
        }
        return v;
    }
}
