package io.most.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.errors.TaskCorruptedException;
import org.apache.kafka.streams.processor.BatchingStateRestoreCallback;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store's life in a task: offsets, restore, damage, a second instance, memory shares, IQv2. */
class MostKeyValueStoreLifecycleTest {
    private static final TopicPartition CHANGELOG = new TopicPartition("app-store-changelog", 0);

    @TempDir
    Path stateDir;

    private static Bytes k(String s) {
        return Bytes.wrap(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private MostKeyValueStore open(String name) {
        MostKeyValueStore store = new MostKeyValueStore(name);
        StoreContexts.init(store, stateDir, 4L << 20);
        return store;
    }

    @Test
    void offsetsAreCommittedWithTheDataAndAnEmptyMapClearsThem() {
        MostKeyValueStore store = open("offsets");
        assertTrue(store.managesOffsets());
        assertTrue(store.persistent());
        assertNull(store.committedOffset(CHANGELOG));
        store.put(k("a"), new byte[] {1});
        store.commit(Map.of(CHANGELOG, 17L));
        store.put(k("b"), new byte[] {2}); // after the commit: rolled back at reopen
        store.close();
        assertFalse(store.isOpen());

        store = open("offsets");
        assertEquals(17L, store.committedOffset(CHANGELOG));
        assertArrayEquals(new byte[] {1}, store.get(k("a")));
        assertNull(store.get(k("b")));
        assertEquals(1, store.approximateNumEntries());
        store.commit(Map.of());
        store.close();

        store = open("offsets");
        assertNull(store.committedOffset(CHANGELOG));
        assertArrayEquals(new byte[] {1}, store.get(k("a")));
        store.close();
        assertTrue(Files.isDirectory(stateDir.resolve("offsets")), "files only under stateDir()/<name>");
    }

    @Test
    void initRegistersABatchingRestoreCallbackThatAppliesPutsAndDeletes() {
        MostKeyValueStore store = new MostKeyValueStore("restore");
        MockProcessorContext<Object, Object> context = new MockProcessorContext<>(StoreContexts.props(stateDir, 4L << 20),
                new TaskId(0, 0), stateDir.toFile());
        BatchingStateRestoreCallback[] registered = new BatchingStateRestoreCallback[1];
        StateStoreContext recording = new ForwardingContext(context.getStateStoreContext()) {
            @Override
            public void register(StateStore s, org.apache.kafka.streams.processor.StateRestoreCallback callback) {
                registered[0] = assertInstanceOf(BatchingStateRestoreCallback.class, callback);
                super.register(s, callback);
            }
        };
        store.init(recording, store);
        try {
            registered[0].restoreAll(List.of(KeyValue.pair(k("x").get(), new byte[] {1}),
                    KeyValue.pair(k("y").get(), new byte[] {2}), KeyValue.pair(k("x").get(), null)));
            assertNull(store.get(k("x")));
            assertArrayEquals(new byte[] {2}, store.get(k("y")));
            assertEquals(1, store.approximateNumEntries());
        } finally {
            store.close();
        }
    }

    @Test
    void aSecondInstanceOnTheSameStateDirectoryIsRefused() {
        MostKeyValueStore first = open("shared");
        try {
            ProcessorStateException e = assertThrows(ProcessorStateException.class, () -> open("shared"));
            assertTrue(e.getMessage().contains("two instances must not share a state directory"), e.getMessage());
            first.put(k("still"), new byte[] {1});
            assertArrayEquals(new byte[] {1}, first.get(k("still")));
        } finally {
            first.close();
        }
    }

    @Test
    void aDamagedJournalIsWipedAtInitSoTheChangelogRestoresTheStore() throws Exception {
        MostKeyValueStore store = open("damaged");
        store.put(k("a"), new byte[] {1});
        store.commit(Map.of(CHANGELOG, 5L));
        store.put(k("b"), new byte[] {2});
        store.close();
        Files.write(stateDir.resolve("damaged").resolve("journal.most"), new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
                12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26});

        store = open("damaged"); // no exception: rebuilt empty, no offsets, so Kafka Streams restores it all
        try {
            assertNull(store.committedOffset(CHANGELOG));
            assertEquals(0, store.approximateNumEntries());
            store.put(k("c"), new byte[] {3});
            assertArrayEquals(new byte[] {3}, store.get(k("c")));
        } finally {
            store.close();
        }
    }

    @Test
    void aDamagedPageFoundWhileRunningIsTaskCorruptedAndTheNextInitRebuilds() throws Exception {
        MostKeyValueStore store = open("torn");
        for (int i = 0; i < 5000; i++) {
            store.put(k("key-" + i), new byte[200]);
        }
        store.commit(Map.of(CHANGELOG, 4999L));
        store.close();
        // damage the leaves alone (blocks holding the keys' bytes): the store opens, reads then find them torn
        Path data = stateDir.resolve("torn").resolve("data.most");
        int damaged = 0;
        try (RandomAccessFile f = new RandomAccessFile(data.toFile(), "rw")) {
            byte[] block = new byte[4096];
            byte[] needle = "key-".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            for (long at = 0; at + 4096 <= Math.min(f.length(), 64L << 20); at += 4096) {
                f.seek(at);
                f.readFully(block);
                if (indexOf(block, needle) >= 0) {
                    f.seek(at + 2048);
                    f.write(new byte[] {(byte) (block[2048] ^ 0x55), (byte) (block[2049] ^ 0x55)});
                    damaged++;
                }
            }
        }
        assertTrue(damaged > 10, "found " + damaged + " leaf blocks to damage");
        Exception failure = null;
        try {
            store = open("torn");
            for (int i = 0; i < 5000; i++) {
                store.get(k("key-" + i));
            }
        } catch (TaskCorruptedException | ProcessorStateException e) {
            failure = e;
        } finally {
            store.close();
        }
        assertInstanceOf(TaskCorruptedException.class, failure, "a torn page must take the task-corrupted path");
        store = open("torn");
        try {
            assertNull(store.committedOffset(CHANGELOG)); // rebuilt: the changelog restores it from the start
            assertEquals(0, store.approximateNumEntries());
        } finally {
            store.close();
        }
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @Test
    void everyStoreOfAnInstanceTakesAShareOfOneBudget() {
        MemoryBudget budget = MemoryBudget.of("most-test-" + stateDir.getFileName() + "@" + stateDir);
        MostKeyValueStore a = open("a");
        MostKeyValueStore b = open("b");
        assertEquals(2, budget.held());
        a.close();
        b.close();
        assertEquals(0, budget.held());
    }

    @Test
    void interactiveQueriesAnswerKeyAndRangeQueriesAtTheStorePosition() {
        MostKeyValueStore store = open("iq");
        try {
            store.put(k("a"), new byte[] {1});
            store.put(k("b"), new byte[] {2});
            QueryResult<byte[]> one = store.query(KeyQuery.withKey(k("a")), PositionBound.unbounded(), new QueryConfig(false));
            assertTrue(one.isSuccess());
            assertArrayEquals(new byte[] {1}, one.getResult());
            QueryResult<KeyValueIterator<Bytes, byte[]>> range = store.query(RangeQuery.withRange(k("a"), k("b")),
                    PositionBound.unbounded(), new QueryConfig(false));
            try (KeyValueIterator<Bytes, byte[]> it = range.getResult()) {
                assertEquals(k("a"), it.next().key);
                assertEquals(k("b"), it.next().key);
                assertFalse(it.hasNext());
            }
            assertTrue(store.getPosition().isEmpty() || store.getPosition().getTopics().size() <= 1);
        } finally {
            store.close();
        }
    }

    /**
     * A store file too small for the data (a full volume, simulated with {@value MostStreamsConfig#STORE_BYTES})
     * fails the write with an error naming the setting; the store is not damaged by it: it reopens at its
     * last commit.
     */
    @Test
    void aFullStoreFileIsAClearErrorAndTheStoreReopensAtItsLastCommit() {
        java.util.Properties p = StoreContexts.props(stateDir, 4L << 20);
        p.put(MostStreamsConfig.STORE_BYTES, Long.toString(1L << 20));
        MostKeyValueStore store = new MostKeyValueStore("full");
        store.init(new MockProcessorContext<>(p, new TaskId(0, 0), stateDir.toFile()).getStateStoreContext(), store);
        ProcessorStateException full;
        try {
            for (int i = 0; i < 100; i++) {
                store.put(k("committed-" + i), new byte[200]);
            }
            store.commit(Map.of(CHANGELOG, 99L));
            full = assertThrows(ProcessorStateException.class, () -> {
                for (int i = 0; i < 100_000; i++) { // 20 MB into a 1 MiB file
                    store.put(k(String.format("more-%06d", i)), new byte[200]);
                }
            });
        } finally {
            store.close();
        }
        assertTrue(full.getMessage().contains("is full") && full.getMessage().contains(MostStreamsConfig.STORE_BYTES),
                full.getMessage());

        MostKeyValueStore reopened = new MostKeyValueStore("full");
        reopened.init(new MockProcessorContext<>(p, new TaskId(0, 0), stateDir.toFile()).getStateStoreContext(), reopened);
        try {
            assertEquals(99L, reopened.committedOffset(CHANGELOG));
            assertEquals(100, reopened.approximateNumEntries());
            assertArrayEquals(new byte[200], reopened.get(k("committed-42")));
            assertNull(reopened.get(k("more-000000")));
        } finally {
            reopened.close();
        }
    }

    @Test
    void badSettingsAreNamed() {
        java.util.Properties p = StoreContexts.props(stateDir, 4L << 20);
        p.put(MostStreamsConfig.DRAM, "lots");
        MostKeyValueStore store = new MostKeyValueStore("bad");
        MockProcessorContext<Object, Object> context = new MockProcessorContext<>(p, new TaskId(0, 0), stateDir.toFile());
        org.apache.kafka.common.config.ConfigException e = assertThrows(org.apache.kafka.common.config.ConfigException.class,
                () -> store.init(context.getStateStoreContext(), store));
        assertTrue(e.getMessage().contains(MostStreamsConfig.DRAM), e.getMessage());
    }
}
