package io.most.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.utils.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A commit of changelog offsets checkpoints only when {@link CheckpointPolicy} says so; the offsets on
 * disk always describe the data on disk; a close after an unchanged commit checkpoints it; and what a
 * stream of small commits costs in bytes written, each commit a checkpoint or not.
 */
class DeferredCheckpointTest {
    private static final TopicPartition CHANGELOG = new TopicPartition("app-store-changelog", 0);
    private static final long HOUR_MS = 3_600_000;

    @TempDir
    Path stateDir;

    private static Bytes k(String s) {
        return Bytes.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private MostKeyValueStore open(String name, long intervalMs, long checkpointBytes, long dramBytes) {
        Properties p = StoreContexts.props(stateDir, dramBytes);
        p.put(MostStreamsConfig.CHECKPOINT_INTERVAL_MS, Long.toString(intervalMs));
        p.put(MostStreamsConfig.CHECKPOINT_BYTES, Long.toString(checkpointBytes));
        MostKeyValueStore store = new MostKeyValueStore(name);
        StoreContexts.init(store, p, stateDir);
        return store;
    }

    private MostKeyValueStore open(String name) {
        return open(name, HOUR_MS, 64L << 20, 4L << 20);
    }

    @Test
    void aCommitWithinTheIntervalIsNotDurableAndAChangeAfterItRollsBackToTheLastCheckpoint() {
        MostKeyValueStore store = open("deferred");
        store.put(k("a"), new byte[] {1});
        store.commit(Map.of(CHANGELOG, 7L));
        assertNull(store.committedOffset(CHANGELOG), "the commit only remembered its offsets");
        store.put(k("b"), new byte[] {2});
        store.close(); // changed since the commit: nothing to checkpoint that the offsets describe

        store = open("deferred");
        try {
            assertNull(store.committedOffset(CHANGELOG));
            assertEquals(0, store.approximateNumEntries(), "back at the last checkpoint: the empty store");
        } finally {
            store.close();
        }
    }

    @Test
    void aCloseRightAfterACommitCheckpointsIt() {
        MostKeyValueStore store = open("clean");
        store.put(k("a"), new byte[] {1});
        store.commit(Map.of(CHANGELOG, 7L));
        store.close();

        store = open("clean");
        try {
            assertEquals(7L, store.committedOffset(CHANGELOG), "a clean close replays nothing");
            assertArrayEquals(new byte[] {1}, store.get(k("a")));
        } finally {
            store.close();
        }
    }

    @Test
    void enoughChangedPagesMakeACommitCheckpoint() {
        MostKeyValueStore store = open("bytes", HOUR_MS, 64L << 10, 4L << 20); // 16 pages of 4 KiB
        try {
            store.put(k("a"), new byte[] {1});
            store.commit(Map.of(CHANGELOG, 0L));
            assertNull(store.committedOffset(CHANGELOG), "a page or two changed");
            for (int i = 1; i <= 2000; i++) {
                store.put(k(String.format("key-%05d", i)), new byte[100]);
            }
            store.commit(Map.of(CHANGELOG, 2000L));
            assertEquals(2000L, store.committedOffset(CHANGELOG), "200 KB of entries changed more than 16 pages");
        } finally {
            store.close();
        }
    }

    @Test
    void anEmptyMapCheckpointsAtOnceAndClearsTheOffsets() {
        MostKeyValueStore store = open("empty");
        store.put(k("a"), new byte[] {1});
        store.commit(Map.of());
        store.put(k("b"), new byte[] {2});
        store.close();

        store = open("empty");
        try {
            assertNull(store.committedOffset(CHANGELOG));
            assertArrayEquals(new byte[] {1}, store.get(k("a")), "a store without a changelog keeps each commit");
            assertNull(store.get(k("b")));
        } finally {
            store.close();
        }
    }

    @Test
    void badCheckpointSettingsAreNamed() {
        for (String[] bad : new String[][] {{MostStreamsConfig.CHECKPOINT_INTERVAL_MS, "-1"},
                {MostStreamsConfig.CHECKPOINT_INTERVAL_MS, "soon"}, {MostStreamsConfig.CHECKPOINT_BYTES, "0"}}) {
            Properties p = StoreContexts.props(stateDir, 4L << 20);
            p.put(bad[0], bad[1]);
            MostKeyValueStore store = new MostKeyValueStore("bad");
            ConfigException e = assertThrows(ConfigException.class, () -> StoreContexts.init(store, p, stateDir));
            assertTrue(e.getMessage().contains(bad[0]), e.getMessage());
        }
    }

    /**
     * Exactly-once's rhythm at the store: 200 commits of 50 random updates each, over 20,000 keys in a
     * store four times its DRAM share. Checkpointing every commit writes each changed page and its
     * before-image per commit; remembering the offsets leaves the page writes to eviction and one
     * before-image per page per checkpoint interval.
     */
    @Test
    void commitsThatOnlyRememberTheirOffsetsWriteFarLess() {
        long everyCommit = bytesPerCommit("every", 0);
        long deferred = bytesPerCommit("deferred", HOUR_MS);
        System.out.printf("bytes written per commit of 50 updates: %,d checkpointing each, %,d deferred%n",
                everyCommit, deferred);
        assertTrue(deferred * 3 < everyCommit * 2, "deferred " + deferred + " vs " + everyCommit + " bytes per commit");
    }

    /** Loads 20,000 keys, then measures the bytes written per commit over 200 commits of 50 updates. */
    private long bytesPerCommit(String name, long intervalMs) {
        // 16 shares of 512 KiB: about 2.4 MB of entries against a 512 KiB share
        MostKeyValueStore store = open(name, intervalMs, 64L << 20, 8L << 20);
        try {
            byte[] value = new byte[100];
            for (int i = 0; i < 20_000; i++) {
                store.put(k(String.format("key-%06d", i)), value);
            }
            store.commit(Map.of());
            SplittableRandom random = new SplittableRandom(42);
            long before = store.bytesWritten();
            long offset = 20_000;
            for (int c = 0; c < 200; c++) {
                for (int u = 0; u < 50; u++) {
                    value[0] = (byte) u;
                    store.put(k(String.format("key-%06d", random.nextInt(20_000))), value);
                    offset++;
                }
                store.commit(Map.of(CHANGELOG, offset));
            }
            return (store.bytesWritten() - before) / 200;
        } finally {
            store.close();
        }
    }
}
