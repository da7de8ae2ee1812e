package io.most.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 of a JVM writing a MOST store and committing offsets: the store reopens exactly at a
 * checkpoint, with exactly the data of the operations up to that checkpoint's offset. Three crashes in
 * a row, each writer resuming from the offset the store reopened at; once with every commit a
 * checkpoint, once with commits that only checkpoint when enough pages changed.
 */
class KillNineTest {
    @TempDir
    Path stateDir;

    /**
     * Every commit checkpoints: the store reopens at the last commit the writer printed, or at the next
     * one if the kill came after its checkpoint and before its line.
     */
    @Test
    void aKilledWriterReopensAtItsLastCommit() throws Exception {
        int every = 5000;
        long resumeAfter = -1;
        for (int round = 0; round < 3; round++) {
            Printed printed = runAndKill(every, 0, 64L << 20, resumeAfter, "committed ", 2 + round);
            long committed = reopenAndCheck(round, printed);
            assertTrue(committed == printed.committed || committed == printed.committed + every,
                    "round " + round + ": reopened at " + committed + ", last printed commit " + printed.committed);
            resumeAfter = committed;
        }
    }

    /**
     * Commits every 10 operations, checkpoints only once 160 KiB of pages changed: the store reopens at
     * the last checkpoint the writer printed (or at the commit after its last printed one, if the kill
     * came after that commit's checkpoint and before its lines), never at a commit that only remembered
     * its offsets, and its data are exactly those of that checkpoint's offset.
     */
    @Test
    void aKilledWriterWithDeferredCheckpointsReopensAtItsLastCheckpoint() throws Exception {
        int every = 10;
        long resumeAfter = -1;
        long commits = 0;
        long checkpoints = 0;
        for (int round = 0; round < 3; round++) {
            Printed printed = runAndKill(every, 3_600_000, 160L << 10, resumeAfter, "durable ", 2);
            commits += printed.commits;
            checkpoints += printed.checkpoints;
            long committed = reopenAndCheck(round, printed);
            assertTrue(committed == printed.durable || committed == printed.committed + every, "round " + round
                    + ": reopened at " + committed + ", last printed " + printed);
            resumeAfter = committed;
        }
        assertTrue(checkpoints * 2 < commits, checkpoints + " of " + commits + " commits checkpointed: most commits"
                + " only remember their offsets");
    }

    /** Reopens the store, checks its data are exactly the operations up to its offset; returns the offset. */
    private long reopenAndCheck(int round, Printed printed) {
        MostKeyValueStore store = new MostKeyValueStore(CrashingWriterMain.NAME);
        StoreContexts.init(store, stateDir, CrashingWriterMain.DRAM);
        try {
            Long committed = store.committedOffset(CrashingWriterMain.CHANGELOG);
            assertNotNull(committed, "round " + round + ": no offsets after " + printed);
            TreeMap<Bytes, byte[]> model = new TreeMap<>();
            for (long i = 0; i <= committed; i++) {
                CrashingWriterMain.apply(i, null, model);
            }
            assertEquals(model.size(), store.approximateNumEntries());
            try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
                Iterator<Map.Entry<Bytes, byte[]>> want = model.entrySet().iterator();
                while (it.hasNext()) {
                    KeyValue<Bytes, byte[]> e = it.next();
                    Map.Entry<Bytes, byte[]> w = want.next();
                    assertEquals(w.getKey(), e.key);
                    assertArrayEquals(w.getValue(), e.value, "value of " + e.key);
                }
                assertFalse(want.hasNext(), "entries missing after " + committed);
            }
            return committed;
        } finally {
            store.close();
        }
    }

    /** What a killed writer printed: its last commit and checkpoint, and how many of each. */
    private static final class Printed {
        long committed;
        long durable;
        long commits;
        long checkpoints;

        Printed(long resumeAfter) {
            committed = resumeAfter;
            durable = resumeAfter;
        }

        /** Takes one line of the writer's; returns whether it starts with {@code prefix}. */
        boolean take(String line, String prefix) {
            if (line.startsWith("committed ")) {
                committed = Long.parseLong(line.substring("committed ".length()));
                commits++;
            } else if (line.startsWith("durable ")) {
                durable = Long.parseLong(line.substring("durable ".length()));
                checkpoints++;
            }
            return line.startsWith(prefix);
        }

        @Override
        public String toString() {
            return "commit " + committed + ", checkpoint " + durable;
        }
    }

    /**
     * Starts the writer, waits for {@code lines} new lines starting with {@code prefix}, kills it, and
     * reads what else it printed before it died.
     */
    private Printed runAndKill(int every, long intervalMs, long checkpointBytes, long resumeAfter, String prefix,
                               int lines) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xmx256m",
                "-cp", System.getProperty("java.class.path"), CrashingWriterMain.class.getName(), stateDir.toString(),
                Integer.toString(every), Long.toString(intervalMs), Long.toString(checkpointBytes)))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        Printed printed = new Printed(resumeAfter);
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII))) {
            for (int seen = 0; seen < lines; ) {
                String line = out.readLine();
                if (line == null) {
                    throw new AssertionError("the writer exited early with status " + p.waitFor());
                }
                if (printed.take(line, prefix)) {
                    seen++;
                }
            }
            // SIGKILL (no shutdown hook, no close) through the handle, which, unlike Process, leaves the pipe
            // open: what the writer printed before it died is still to be read
            p.toHandle().destroyForcibly();
            p.waitFor();
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                printed.take(line, prefix); // printed before it died, not read yet
            }
        } finally {
            p.destroyForcibly();
            p.waitFor();
        }
        assertTrue(printed.committed > resumeAfter);
        return printed;
    }
}
