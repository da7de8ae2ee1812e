package io.most.kafka.streams;

import io.most.errors.CorruptPageException;
import io.most.errors.DataLossException;
import io.most.errors.FileInUseException;
import io.most.errors.MostException;
import io.most.errors.OutOfSpaceException;
import io.most.device.DeviceFullException;
import io.most.kv.KeyTooLargeException;
import io.most.kv.KvIterator;
import io.most.kv.KvOptions;
import io.most.kv.SingleWriterKvStore;
import io.most.kv.ValueTooLargeException;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.errors.TaskCorruptedException;
import org.apache.kafka.streams.processor.BatchingStateRestoreCallback;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.internals.StoreQueryUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A persistent {@code KeyValueStore<Bytes, byte[]>} on MOST: a {@link SingleWriterKvStore} in
 * {@code stateDir()/<name>}, keys ordered by their bytes (unsigned), as RocksDB orders them.
 *
 * <p><b>Offsets (KIP-1035).</b> The store manages its changelog offsets. A checkpoint writes them, the
 * IQv2 position and every change since the previous checkpoint atomically, so the offsets the store
 * holds on disk always describe exactly the data it holds there. Nothing is logged per key: the
 * changelog topic is the log, so a commit need not be durable: {@link #commit} checkpoints once
 * {@value MostStreamsConfig#CHECKPOINT_INTERVAL_MS} has passed since the last checkpoint or
 * {@value MostStreamsConfig#CHECKPOINT_BYTES} of pages have changed, and otherwise only remembers the
 * offsets ({@link CheckpointPolicy}). A crash reopens the store at its last checkpoint, and Kafka
 * Streams replays the changelog after that checkpoint's offsets ({@link #committedOffset}). {@link #close}
 * checkpoints the last commit's offsets if nothing changed since it, so a clean restart replays nothing.
 * An empty map (a store without a changelog, or one Kafka Streams found corrupted) checkpoints at once
 * and clears the offsets.
 *
 * <p>Which commits carry offsets is Kafka Streams' choice (4.4): at least once, after every commit of
 * a task that processed records; under {@code exactly_once_v2}, only when a restore ends and when the
 * task closes cleanly, unless {@code enable.transactional.statestores} is set, when it is after every
 * transaction commit (then a crash replays only the changelog after the last checkpoint; without it, all
 * the changelog written since the task last restored or closed cleanly).
 *
 * <p><b>Damage.</b> A store whose files cannot be opened as a consistent checkpoint (damaged journal
 * header, torn page, files of another engine or settings) is deleted at {@link #init} with a warning
 * naming it, and starts empty with no offsets, so Kafka Streams restores it from the changelog. A
 * damaged page found later fails the operation with {@link TaskCorruptedException} after marking the
 * store, so Kafka Streams closes the task and the next {@code init} rebuilds it the same way: never a
 * crash loop.
 *
 * <p><b>Memory.</b> The store's DRAM comes from its application instance's {@link MemoryBudget}.
 *
 * <p><b>Meters.</b> Bytes in DRAM, page hits and misses, bytes read from and written to the store's
 * file, bytes written to its rollback journal, and the shared budget's use are gauges in Kafka Streams' store-level metrics (group
 * {@code stream-state-metrics}, tag {@code most-state-id}), read through {@code KafkaStreams.metrics()};
 * Micrometer users bind them with {@code KafkaStreamsMetrics}.
 *
 * <p><b>Threads.</b> The stream thread that owns the task writes; interactive queries read from other
 * threads. Iterators see the store as of when they were opened, also while the owner writes.
 */
public class MostKeyValueStore implements KeyValueStore<Bytes, byte[]> {
    private static final Logger LOG = LoggerFactory.getLogger(MostKeyValueStore.class);
    /** Written into a store found damaged while open: the next {@link #init} deletes the store. */
    static final String DAMAGED_MARKER = "DAMAGED";

    private final String name;
    private volatile SingleWriterKvStore store;
    private StateStoreContext context;
    private Path directory;
    private MemoryBudget.Grant grant;
    private StoreMetrics metrics;
    private volatile CheckpointMetadata committed = CheckpointMetadata.empty();
    private volatile Position position = Position.emptyPosition();
    private int pageSize;
    private CheckpointPolicy policy;
    /** The last commit's offsets and position when it did not checkpoint; null once checkpointed. */
    private CheckpointMetadata pending;
    /** Changes made through this store since it opened, and their number at the pending commit. */
    private long changes;
    private long changesAtPending;
    private volatile boolean damaged;

    /** A store named {@code name} (its directory under the task's state directory). */
    public MostKeyValueStore(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        this.context = context;
        this.directory = context.stateDir().toPath().resolve(name);
        Map<String, Object> configs = context.appConfigs();
        MostStreamsConfig config = MostStreamsConfig.from(configs);
        String instance = configs.get(StreamsConfig.APPLICATION_ID_CONFIG) + "@" + configs.get(StreamsConfig.STATE_DIR_CONFIG);
        grant = MemoryBudget.of(instance).acquire(config, context.taskId() + "/" + name);
        try {
            store = openOrRebuild(config);
        } catch (RuntimeException | Error e) {
            grant.release();
            grant = null;
            throw e;
        }
        committed = CheckpointMetadata.decode(store.metadata());
        position = committed.position().copy();
        pageSize = config.pageSize();
        policy = new CheckpointPolicy(config.checkpointIntervalMs(), config.checkpointBytes(), System.nanoTime());
        pending = null;
        damaged = false;
        metrics = StoreMetrics.register(context.metrics(), context.taskId().toString(), name, store, config.pageSize(), grant);
        context.register(root, (BatchingStateRestoreCallback) this::restoreAll);
    }

    private SingleWriterKvStore openOrRebuild(MostStreamsConfig config) {
        Path marker = directory.resolve(DAMAGED_MARKER);
        if (Files.exists(marker)) {
            wipe("it was marked damaged: " + read(marker));
        }
        try {
            return open(config);
        } catch (MostException e) {
            // a damaged journal, superblock, bitmap or page, or files of other settings: rebuilt from the
            // changelog; should the fresh store fail too, that failure is not damage and propagates
            wipe(e.getMessage());
            return open(config);
        }
    }

    private SingleWriterKvStore open(MostStreamsConfig config) {
        try {
            Files.createDirectories(directory);
            return SingleWriterKvStore.open(KvOptions.inDirectory(directory)
                    .pageSize(config.pageSize())
                    .dramBytes(grant.bytes())
                    .deviceBytes(config.storeBytes())
                    .maxKeySize(config.maxKeySize())
                    .build());
        } catch (FileInUseException e) {
            throw new StoreInUseException("MOST store " + name + " in " + directory + " is open in another"
                    + " Kafka Streams instance or process: two instances must not share a state directory ("
                    + StreamsConfig.STATE_DIR_CONFIG + ")", e);
        } catch (DeviceFullException e) {
            throw new StoreFullException("no room for MOST store " + name + " in " + directory + ": free disk"
                    + " space or lower " + MostStreamsConfig.STORE_BYTES, e);
        } catch (IOException e) {
            throw new ProcessorStateException("cannot create MOST store directory " + directory, e);
        }
    }

    /** The store is open elsewhere: not damage, so never wiped. */
    static final class StoreInUseException extends ProcessorStateException {
        private static final long serialVersionUID = 1L;

        StoreInUseException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** No room for the store's files: not damage, so never wiped. */
    static final class StoreFullException extends ProcessorStateException {
        private static final long serialVersionUID = 1L;

        StoreFullException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Deletes the store's directory; Kafka Streams then restores it from the changelog (no offsets). */
    private void wipe(String reason) {
        LOG.warn("MOST store {} in {} is damaged ({}); deleting it so Kafka Streams restores it from the changelog",
                name, directory, reason);
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new ProcessorStateException("cannot delete damaged MOST store " + directory, e);
        }
    }

    private static String read(Path marker) {
        try {
            return Files.readString(marker, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(unreadable marker: " + e.getMessage() + ")";
        }
    }

    private void restoreAll(Collection<KeyValue<byte[], byte[]>> records) {
        List<io.most.kv.KeyValue> batch = new ArrayList<>(records.size());
        for (KeyValue<byte[], byte[]> r : records) {
            batch.add(new io.most.kv.KeyValue(r.key, r.value));
        }
        SingleWriterKvStore s = open();
        changes++;
        guard(() -> {
            s.putAll(batch);
            return null;
        });
    }

    // ---------------------------------------------------------------- writes

    @Override
    public void put(Bytes key, byte[] value) {
        Objects.requireNonNull(key, "key cannot be null");
        SingleWriterKvStore s = open();
        changes++;
        guard(() -> value == null ? s.delete(key.get()) : s.put(key.get(), value));
        StoreQueryUtils.updatePosition(position, context);
    }

    @Override
    public byte[] putIfAbsent(Bytes key, byte[] value) {
        Objects.requireNonNull(key, "key cannot be null");
        SingleWriterKvStore s = open();
        changes++;
        byte[] current = guard(() -> value == null ? s.get(key.get()) : s.putIfAbsent(key.get(), value));
        StoreQueryUtils.updatePosition(position, context);
        return current;
    }

    @Override
    public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
        List<io.most.kv.KeyValue> batch = new ArrayList<>(entries.size());
        for (KeyValue<Bytes, byte[]> e : entries) {
            Objects.requireNonNull(e.key, "key cannot be null");
            batch.add(new io.most.kv.KeyValue(e.key.get(), e.value));
        }
        SingleWriterKvStore s = open();
        changes++;
        guard(() -> {
            s.putAll(batch);
            return null;
        });
        StoreQueryUtils.updatePosition(position, context);
    }

    @Override
    public byte[] delete(Bytes key) {
        Objects.requireNonNull(key, "key cannot be null");
        SingleWriterKvStore s = open();
        changes++;
        byte[] before = guard(() -> s.delete(key.get()));
        StoreQueryUtils.updatePosition(position, context);
        return before;
    }

    // ---------------------------------------------------------------- reads

    @Override
    public byte[] get(Bytes key) {
        Objects.requireNonNull(key, "key cannot be null");
        SingleWriterKvStore s = open();
        return guard(() -> s.get(key.get()));
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        return iterator(from, to, false);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
        return iterator(from, to, true);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        return iterator(null, null, false);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseAll() {
        return iterator(null, null, true);
    }

    @Override
    public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, PS prefixKeySerializer) {
        Objects.requireNonNull(prefix, "prefix cannot be null");
        Objects.requireNonNull(prefixKeySerializer, "prefixKeySerializer cannot be null");
        byte[] p = prefixKeySerializer.serialize(null, prefix);
        SingleWriterKvStore s = open();
        return new StoreIterator(guard(() -> s.prefix(p)));
    }

    /** A null bound is open; an inverted range ({@code from > to}) is empty, as in Kafka's own stores. */
    private KeyValueIterator<Bytes, byte[]> iterator(Bytes from, Bytes to, boolean reverse) {
        SingleWriterKvStore s = open();
        return new StoreIterator(guard(() -> s.range(from == null ? null : from.get(), to == null ? null : to.get(), reverse)));
    }

    @Override
    public long approximateNumEntries() {
        return open().size();
    }

    /** Adapts the engine's snapshot iterator; engine failures take the same path as the store's. */
    private final class StoreIterator implements KeyValueIterator<Bytes, byte[]> {
        private final KvIterator it;

        StoreIterator(KvIterator it) {
            this.it = it;
        }

        @Override
        public boolean hasNext() {
            return guard(it::hasNext);
        }

        @Override
        public KeyValue<Bytes, byte[]> next() {
            io.most.kv.KeyValue e = guard(it::next);
            return KeyValue.pair(Bytes.wrap(e.key()), e.value());
        }

        @Override
        public Bytes peekNextKey() {
            return Bytes.wrap(guard(it::peekKey));
        }

        @Override
        public void close() {
            it.close();
        }
    }

    // ---------------------------------------------------------------- offsets, lifecycle

    @Override
    public boolean managesOffsets() {
        return true;
    }

    /**
     * Commits {@code changelogOffsets} (Kafka's {@code -4} marks an offset it does not know) and the
     * position with the data as it is now: a checkpoint if {@link CheckpointPolicy} says it is due or
     * the map is empty (which clears the offsets), otherwise the offsets are remembered for a later
     * checkpoint and {@link #close}. Either way the offsets on disk describe exactly the data on disk.
     */
    @Override
    public void commit(Map<TopicPartition, Long> changelogOffsets) {
        SingleWriterKvStore s = open();
        CheckpointMetadata next = new CheckpointMetadata(Map.copyOf(changelogOffsets), position.copy());
        byte[] blob = next.encode();
        if (blob.length > s.maxMetadataSize()) {
            throw new ProcessorStateException("MOST store " + name + " cannot checkpoint " + changelogOffsets.size()
                    + " changelog offsets in its " + s.maxMetadataSize() + "-byte metadata page: raise "
                    + MostStreamsConfig.PAGE_SIZE);
        }
        long now = System.nanoTime();
        if (!changelogOffsets.isEmpty() && !policy.due((long) s.changedPages() * pageSize, now)) {
            pending = next;
            changesAtPending = changes;
            return;
        }
        checkpoint(s, next, blob, now);
    }

    private void checkpoint(SingleWriterKvStore s, CheckpointMetadata next, byte[] blob, long now) {
        guard(() -> {
            s.checkpoint(blob);
            return null;
        });
        committed = next;
        pending = null;
        policy.checkpointed(now);
    }

    /**
     * The offset of the store's last checkpoint: what it reopens at after a crash (Kafka Streams reads it
     * when the store opens), not the last commit's if that one did not checkpoint.
     */
    @Override
    public Long committedOffset(TopicPartition partition) {
        return committed.offsets().get(partition);
    }

    /**
     * Kafka Streams before KIP-1035 flushes instead of committing: a checkpoint of the last commit's
     * offsets if nothing changed since it, else of the data with its offsets cleared (data newer than
     * the offsets would be replayed over, which exactly-once cannot allow).
     */
    @Override
    @Deprecated
    public void flush() {
        SingleWriterKvStore s = store;
        if (s == null) {
            return;
        }
        CheckpointMetadata next = pending != null && changes == changesAtPending ? pending
                : s.changedPages() == 0 ? committed : new CheckpointMetadata(Map.of(), position.copy());
        checkpoint(s, next, next.encode(), System.nanoTime());
    }

    @Override
    public boolean persistent() {
        return true;
    }

    @Override
    public boolean isOpen() {
        return store != null;
    }

    /**
     * Closes the store. If nothing changed since the last commit that only remembered its offsets, they
     * are checkpointed first (a clean close replays nothing at the next start); otherwise changes after
     * the last checkpoint are rolled back at reopen and replayed from the changelog.
     */
    @Override
    public synchronized void close() {
        SingleWriterKvStore s = store;
        if (s == null) {
            return;
        }
        try {
            if (pending != null && changes == changesAtPending && !damaged) {
                checkpoint(s, pending, pending.encode(), System.nanoTime());
            }
        } finally {
            release(s);
        }
    }

    private void release(SingleWriterKvStore s) {
        store = null;
        pending = null;
        StoreMetrics m = metrics;
        metrics = null;
        try {
            if (m != null) {
                m.remove(); // first: no gauge may read a closed store
            }
        } finally {
            try {
                s.close();
            } finally {
                if (grant != null) {
                    grant.release();
                    grant = null;
                }
            }
        }
    }

    @Override
    public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        return StoreQueryUtils.handleBasicQueries(query, positionBound, config, this, position, context);
    }

    @Override
    public Position getPosition() {
        return position;
    }

    // ---------------------------------------------------------------- failures

    private SingleWriterKvStore open() {
        SingleWriterKvStore s = store;
        if (s == null) {
            throw new InvalidStateStoreException("MOST store " + name + " is not open");
        }
        return s;
    }

    /** Runs an engine call, turning its failures into Kafka Streams' exceptions (see the class comment). */
    private <T> T guard(java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (CorruptPageException | DataLossException e) {
            markDamaged(e);
            throw new TaskCorruptedException(Set.of(context.taskId()),
                    new ProcessorStateException("MOST store " + name + " in " + directory + " is damaged: " + e.getMessage(), e));
        } catch (KeyTooLargeException | ValueTooLargeException e) {
            throw new ProcessorStateException("MOST store " + name + ": " + e.getMessage() + " (new stores take"
                    + " larger entries with a larger " + MostStreamsConfig.PAGE_SIZE + " or "
                    + MostStreamsConfig.MAX_KEY_SIZE + ")", e);
        } catch (OutOfSpaceException | DeviceFullException e) {
            throw new ProcessorStateException("MOST store " + name + " in " + directory + " is full: raise "
                    + MostStreamsConfig.STORE_BYTES + " or free disk space", e);
        } catch (UncheckedIOException e) {
            throw new ProcessorStateException("MOST store " + name + " in " + directory + ": " + e.getMessage(), e);
        } catch (IllegalStateException e) {
            throw new InvalidStateStoreException("MOST store " + name + " is closed");
        }
    }

    private void markDamaged(Exception cause) {
        damaged = true;
        try {
            Files.writeString(directory.resolve(DAMAGED_MARKER), String.valueOf(cause.getMessage()), StandardCharsets.UTF_8);
        } catch (IOException e) {
            cause.addSuppressed(e);
        }
    }

    /** Bytes the store wrote to its files since it opened (pages and rollback journal), for tests. */
    long bytesWritten() {
        SingleWriterKvStore s = open();
        return s.stats().ssdWrites() * pageSize + s.journalBytesWritten();
    }

    /** The store's directory, for tests. */
    File directory() {
        return directory.toFile();
    }
}
