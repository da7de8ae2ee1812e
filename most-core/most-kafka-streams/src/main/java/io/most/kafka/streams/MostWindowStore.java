package io.most.kafka.streams;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.internals.TimeWindow;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

/**
 * A persistent {@code WindowStore<Bytes, byte[]>} on one {@link MostKeyValueStore}: each record is one
 * entry keyed {@code [key][window start, 8 bytes big-endian][sequence number, 4 bytes]}, the layout of
 * Kafka's window changelog keys, so a restore writes changelog records as they are. Everything the
 * key-value store guarantees (offsets in its checkpoint, shared DRAM budget, damage handling,
 * snapshot iterators) holds here.
 *
 * <p><b>Retention</b> as Kafka's in-memory window store: a put whose window started at or before
 * {@code observedStreamTime - retentionPeriod} is dropped, and fetches do not return such windows.
 * Expired entries are deleted by a sweep of the whole store each time stream time passes another
 * segment interval: one page-order scan per interval instead of RocksDB's segment files, so the
 * store's size stays bounded by the retention plus one interval.
 *
 * <p><b>Order.</b> A single key's windows come by start time. Key-range fetches and {@code all} come
 * in the composite key's byte order: by key bytes, then start time (RocksDB orders so within one
 * segment; Kafka's in-memory store orders by start time first). Variable-length keys that extend one
 * another interleave in byte order, so every scan filters on the decoded key and time.
 */
public class MostWindowStore extends CompositeKeyStore implements WindowStore<Bytes, byte[]> {
    private static final int SUFFIX = 12;

    private final long retentionPeriod;
    private final long windowSize;
    private final boolean retainDuplicates;
    private long observedStreamTime = -1;
    private int sequence;

    /**
     * @throws IllegalArgumentException if retention, window size or segment interval is not positive
     */
    public MostWindowStore(String name, long retentionPeriod, long windowSize, long segmentInterval,
                           boolean retainDuplicates) {
        if (retentionPeriod <= 0 || windowSize <= 0 || segmentInterval <= 0) {
            throw new IllegalArgumentException("retention (" + retentionPeriod + " ms), window size (" + windowSize
                    + " ms) and segment interval (" + segmentInterval + " ms) must be positive");
        }
        super(name, segmentInterval);
        this.retentionPeriod = retentionPeriod;
        this.windowSize = windowSize;
        this.retainDuplicates = retainDuplicates;
    }

    static Bytes compositeKey(Bytes key, long windowStart, int seq) {
        byte[] k = key.get();
        return Bytes.wrap(ByteBuffer.allocate(k.length + SUFFIX).put(k).putLong(windowStart).putInt(seq).array());
    }

    private static Bytes keyOf(byte[] composite) {
        return Bytes.wrap(Arrays.copyOf(composite, composite.length - SUFFIX));
    }

    private static long startOf(byte[] composite) {
        return ByteBuffer.wrap(composite, composite.length - SUFFIX, 8).getLong();
    }

    // ---------------------------------------------------------------- writes

    @Override
    public void put(Bytes key, byte[] value, long windowStartTimestamp) {
        Objects.requireNonNull(key, "key cannot be null");
        observedStreamTime = Math.max(observedStreamTime, windowStartTimestamp);
        if (windowStartTimestamp <= observedStreamTime - retentionPeriod) {
            return; // expired: Kafka's stores drop it too
        }
        if (retainDuplicates) {
            if (value == null) {
                return; // a duplicate-retaining store keeps no tombstones
            }
            sequence = (sequence + 1) & 0x7FFFFFFF;
        }
        entries.put(compositeKey(key, windowStartTimestamp, retainDuplicates ? sequence : 0), value);
        long cutoff = observedStreamTime - retentionPeriod; // windows starting at or before it are expired
        maybeSweep(cutoff, c -> c.length >= SUFFIX && startOf(c) <= cutoff);
    }

    // ---------------------------------------------------------------- reads

    private long earliest() {
        return Math.max(0, observedStreamTime - retentionPeriod + 1);
    }

    /**
     * The value of {@code key}'s window starting at {@code time}, or null. A store that retains duplicates
     * holds several values per window and answers null, as Kafka's in-memory window store does (its
     * RocksDB store answers only if the last put was to this window); stream-stream joins, the users of
     * such stores, fetch ranges.
     */
    @Override
    public byte[] fetch(Bytes key, long time) {
        Objects.requireNonNull(key, "key cannot be null");
        if (retainDuplicates || time < earliest()) {
            return null;
        }
        return entries.get(compositeKey(key, time, 0));
    }

    @Override
    public WindowStoreIterator<byte[]> fetch(Bytes key, long timeFrom, long timeTo) {
        return singleKey(key, timeFrom, timeTo, false);
    }

    @Override
    public WindowStoreIterator<byte[]> backwardFetch(Bytes key, long timeFrom, long timeTo) {
        return singleKey(key, timeFrom, timeTo, true);
    }

    private WindowStoreIterator<byte[]> singleKey(Bytes key, long timeFrom, long timeTo, boolean backward) {
        Objects.requireNonNull(key, "key cannot be null");
        KeyValueIterator<Long, byte[]> it = CompositeKeyScan.iterator(scan(key, key, timeFrom, timeTo, backward),
                MostWindowStore::startOf);
        return new WindowStoreIterator<>() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public KeyValue<Long, byte[]> next() {
                return it.next();
            }

            @Override
            public Long peekNextKey() {
                return it.peekNextKey();
            }

            @Override
            public void close() {
                it.close();
            }
        };
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> fetch(Bytes keyFrom, Bytes keyTo, long timeFrom, long timeTo) {
        return windowed(scan(keyFrom, keyTo, timeFrom, timeTo, false));
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetch(Bytes keyFrom, Bytes keyTo, long timeFrom, long timeTo) {
        return windowed(scan(keyFrom, keyTo, timeFrom, timeTo, true));
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> fetchAll(long timeFrom, long timeTo) {
        return windowed(scan(null, null, timeFrom, timeTo, false));
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetchAll(long timeFrom, long timeTo) {
        return windowed(scan(null, null, timeFrom, timeTo, true));
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> all() {
        return windowed(scan(null, null, 0, Long.MAX_VALUE, false));
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardAll() {
        return windowed(scan(null, null, 0, Long.MAX_VALUE, true));
    }

    private KeyValueIterator<Windowed<Bytes>, byte[]> windowed(CompositeKeyScan scan) {
        return CompositeKeyScan.iterator(scan, this::windowedKey);
    }

    private Windowed<Bytes> windowedKey(byte[] composite) {
        long start = startOf(composite);
        long end = start + windowSize;
        return new Windowed<>(keyOf(composite), new TimeWindow(start, end < start ? Long.MAX_VALUE : end));
    }

    /**
     * The windows of keys {@code keyFrom <= key <= keyTo} (null: open) starting within {@code [timeFrom,
     * timeTo]} and not expired. One key: exactly its windows' composite range. Several: from keyFrom's
     * bare bytes (every composite of a key >= keyFrom sorts after them) to keyTo with the largest suffix
     * (a key that is a proper prefix of keyTo sorts below it while its start's first byte does not exceed
     * keyTo's next byte: window starts below 2^56 ms, as Kafka's own window key schema assumes).
     */
    private CompositeKeyScan scan(Bytes keyFrom, Bytes keyTo, long timeFrom, long timeTo, boolean backward) {
        long from = Math.max(timeFrom, earliest());
        if (from > timeTo || (keyFrom != null && keyTo != null && keyFrom.compareTo(keyTo) > 0)) {
            return new CompositeKeyScan();
        }
        boolean one = keyFrom != null && keyFrom.equals(keyTo);
        Bytes lower = keyFrom == null ? null : one ? compositeKey(keyFrom, from, 0) : keyFrom;
        Bytes upper = keyTo == null ? null : compositeKey(keyTo, one ? timeTo : Long.MAX_VALUE, -1);
        return new CompositeKeyScan(entries, lower, upper, backward, c -> {
            if (c.length < SUFFIX) {
                return false;
            }
            long start = startOf(c);
            if (start < from || start > timeTo) {
                return false;
            }
            Bytes key = keyOf(c);
            return (keyFrom == null || key.compareTo(keyFrom) >= 0) && (keyTo == null || key.compareTo(keyTo) <= 0);
        });
    }
}
