package io.most.kafka.streams;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.internals.StoreQueryUtils;

/**
 * What MOST's window and session stores share: one {@link MostKeyValueStore} of composite keys
 * {@code [key][fixed-size suffix]} laid out as Kafka's changelog keys of that store type (so a restore
 * writes changelog records as they are), its lifecycle, offsets and queries, and the sweep of expired
 * entries.
 */
abstract class CompositeKeyStore implements StateStore {
    /** The entries, keyed by composite key. */
    final MostKeyValueStore entries;
    private final long segmentInterval;
    private long sweptAt = Long.MIN_VALUE;
    private StateStoreContext context;

    CompositeKeyStore(String name, long segmentInterval) {
        this.entries = new MostKeyValueStore(name);
        this.segmentInterval = segmentInterval;
    }

    @Override
    public String name() {
        return entries.name();
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        this.context = context;
        entries.init(context, root);
    }

    /**
     * Deletes the entries {@code expired} takes once {@code cutoff} (stream time less the retention) has
     * moved a segment interval past the last sweep: one scan per interval instead of RocksDB's segment
     * files, so the store stays bounded by the retention plus one interval.
     */
    void maybeSweep(long cutoff, Predicate<byte[]> expired) {
        if (cutoff < 0 || (sweptAt != Long.MIN_VALUE && cutoff - sweptAt < segmentInterval)) {
            return;
        }
        sweptAt = cutoff;
        List<Bytes> doomed = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = entries.all()) {
            while (it.hasNext()) {
                Bytes k = it.next().key;
                if (expired.test(k.get())) {
                    doomed.add(k);
                }
            }
        }
        for (Bytes k : doomed) {
            entries.delete(k);
        }
    }

    @Override
    public boolean managesOffsets() {
        return true;
    }

    @Override
    public void commit(Map<TopicPartition, Long> changelogOffsets) {
        entries.commit(changelogOffsets);
    }

    @Override
    public Long committedOffset(TopicPartition partition) {
        return entries.committedOffset(partition);
    }

    @Override
    @Deprecated
    public void flush() {
        entries.flush();
    }

    @Override
    public boolean persistent() {
        return true;
    }

    @Override
    public boolean isOpen() {
        return entries.isOpen();
    }

    @Override
    public void close() {
        entries.close();
    }

    @Override
    public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        return StoreQueryUtils.handleBasicQueries(query, positionBound, config, this, entries.getPosition(), context);
    }

    @Override
    public Position getPosition() {
        return entries.getPosition();
    }
}
