package io.most.kafka.streams;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.internals.SessionWindow;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.SessionStore;

/**
 * A persistent {@code SessionStore<Bytes, byte[]>} on one {@link MostKeyValueStore}: each session is one
 * entry keyed {@code [key][end, 8 bytes big-endian][start, 8 bytes big-endian]}, the layout of Kafka's
 * session changelog keys, so a restore writes changelog records as they are.
 *
 * <p><b>Retention</b> as Kafka's in-memory session store: a session that ended at or before
 * {@code observedStreamTime - retentionPeriod} is not stored and not returned; expired entries are
 * deleted by a sweep each time stream time passes another segment interval (see {@link MostWindowStore}).
 *
 * <p><b>Order.</b> A single key's sessions come by end, then start time; key ranges in the composite
 * key's byte order (key bytes, then end, then start), as RocksDB within a segment.
 */
public class MostSessionStore extends CompositeKeyStore implements SessionStore<Bytes, byte[]> {
    private static final int SUFFIX = 16;

    private final long retentionPeriod;
    private long observedStreamTime = -1;

    /** @throws IllegalArgumentException if the retention or segment interval is not positive */
    public MostSessionStore(String name, long retentionPeriod, long segmentInterval) {
        if (retentionPeriod <= 0 || segmentInterval <= 0) {
            throw new IllegalArgumentException("retention (" + retentionPeriod + " ms) and segment interval ("
                    + segmentInterval + " ms) must be positive");
        }
        super(name, segmentInterval);
        this.retentionPeriod = retentionPeriod;
    }

    static Bytes compositeKey(Bytes key, long end, long start) {
        byte[] k = key.get();
        return Bytes.wrap(ByteBuffer.allocate(k.length + SUFFIX).put(k).putLong(end).putLong(start).array());
    }

    private static long endOf(byte[] c) {
        return ByteBuffer.wrap(c, c.length - SUFFIX, 8).getLong();
    }

    private static long startOf(byte[] c) {
        return ByteBuffer.wrap(c, c.length - 8, 8).getLong();
    }

    private static Windowed<Bytes> sessionKey(byte[] c) {
        return new Windowed<>(Bytes.wrap(Arrays.copyOf(c, c.length - SUFFIX)), new SessionWindow(startOf(c), endOf(c)));
    }

    /** The earliest end a live session can have. */
    private long earliestEnd() {
        return Math.max(0, observedStreamTime - retentionPeriod + 1);
    }

    // ---------------------------------------------------------------- writes

    @Override
    public void put(Windowed<Bytes> sessionKey, byte[] aggregate) {
        Objects.requireNonNull(sessionKey, "sessionKey cannot be null");
        long end = sessionKey.window().end();
        observedStreamTime = Math.max(observedStreamTime, end);
        if (end <= observedStreamTime - retentionPeriod) {
            return; // expired: Kafka's stores drop it too
        }
        entries.put(compositeKey(sessionKey.key(), end, sessionKey.window().start()), aggregate);
        long cutoff = observedStreamTime - retentionPeriod; // sessions ending at or before it are expired
        maybeSweep(cutoff, c -> c.length >= SUFFIX && endOf(c) <= cutoff);
    }

    @Override
    public void remove(Windowed<Bytes> sessionKey) {
        Objects.requireNonNull(sessionKey, "sessionKey cannot be null");
        entries.delete(compositeKey(sessionKey.key(), sessionKey.window().end(), sessionKey.window().start()));
    }

    // ---------------------------------------------------------------- reads

    @Override
    public byte[] fetchSession(Bytes key, long sessionStartTime, long sessionEndTime) {
        Objects.requireNonNull(key, "key cannot be null");
        if (sessionEndTime < earliestEnd()) {
            return null;
        }
        return entries.get(compositeKey(key, sessionEndTime, sessionStartTime));
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> findSessions(Bytes key, long earliestSessionEndTime,
                                                                  long latestSessionStartTime) {
        Objects.requireNonNull(key, "key cannot be null");
        return sessions(key, key, earliestSessionEndTime, latestSessionStartTime, false);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFindSessions(Bytes key, long earliestSessionEndTime,
                                                                          long latestSessionStartTime) {
        Objects.requireNonNull(key, "key cannot be null");
        return sessions(key, key, earliestSessionEndTime, latestSessionStartTime, true);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> findSessions(Bytes keyFrom, Bytes keyTo, long earliestSessionEndTime,
                                                                  long latestSessionStartTime) {
        return sessions(keyFrom, keyTo, earliestSessionEndTime, latestSessionStartTime, false);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFindSessions(Bytes keyFrom, Bytes keyTo,
                                                                          long earliestSessionEndTime,
                                                                          long latestSessionStartTime) {
        return sessions(keyFrom, keyTo, earliestSessionEndTime, latestSessionStartTime, true);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> fetch(Bytes key) {
        Objects.requireNonNull(key, "key cannot be null");
        return sessions(key, key, 0, Long.MAX_VALUE, false);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetch(Bytes key) {
        Objects.requireNonNull(key, "key cannot be null");
        return sessions(key, key, 0, Long.MAX_VALUE, true);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> fetch(Bytes keyFrom, Bytes keyTo) {
        return sessions(keyFrom, keyTo, 0, Long.MAX_VALUE, false);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetch(Bytes keyFrom, Bytes keyTo) {
        return sessions(keyFrom, keyTo, 0, Long.MAX_VALUE, true);
    }

    /**
     * Sessions of keys {@code keyFrom <= key <= keyTo} (null: open) with {@code end >= earliestEnd} and
     * {@code start <= latestStart}, not expired; composite bounds as {@link MostWindowStore}'s.
     */
    private KeyValueIterator<Windowed<Bytes>, byte[]> sessions(Bytes keyFrom, Bytes keyTo, long earliestEnd,
                                                               long latestStart, boolean backward) {
        long minEnd = Math.max(earliestEnd, earliestEnd());
        CompositeKeyScan scan;
        if (keyFrom != null && keyTo != null && keyFrom.compareTo(keyTo) > 0) {
            scan = new CompositeKeyScan();
        } else {
            boolean one = keyFrom != null && keyFrom.equals(keyTo);
            Bytes lower = keyFrom == null ? null : one ? compositeKey(keyFrom, minEnd, 0) : keyFrom;
            Bytes upper = keyTo == null ? null : compositeKey(keyTo, Long.MAX_VALUE, Long.MAX_VALUE);
            scan = new CompositeKeyScan(entries, lower, upper, backward, c -> {
                if (c.length < SUFFIX || endOf(c) < minEnd || startOf(c) > latestStart) {
                    return false;
                }
                Bytes key = Bytes.wrap(Arrays.copyOf(c, c.length - SUFFIX));
                return (keyFrom == null || key.compareTo(keyFrom) >= 0) && (keyTo == null || key.compareTo(keyTo) <= 0);
            });
        }
        return CompositeKeyScan.iterator(scan, MostSessionStore::sessionKey);
    }
}
