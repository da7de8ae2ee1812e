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
 * kill -9 of a JVM writing a MOST store and committing offsets: the store reopens exactly at a commit
 * that returned (or, if the kill came after a commit made it durable but before it was printed, the
 * next one), with exactly the data of the operations up to that commit's offset. Three crashes in a
 * row, each writer resuming from the offset the store reopened at.
 */
class KillNineTest {
    @TempDir
    Path stateDir;

    @Test
    void aKilledWriterReopensAtItsLastCommit() throws Exception {
        long resumeAfter = -1;
        for (int round = 0; round < 3; round++) {
            long printed = runAndKill(resumeAfter, 2 + round);
            MostKeyValueStore store = new MostKeyValueStore(CrashingWriterMain.NAME);
            StoreContexts.init(store, stateDir, CrashingWriterMain.DRAM);
            try {
                Long committed = store.committedOffset(CrashingWriterMain.CHANGELOG);
                assertNotNull(committed, "round " + round + ": no offsets after " + printed + " was committed");
                assertTrue(committed == printed || committed == printed + CrashingWriterMain.COMMIT_EVERY,
                        "round " + round + ": reopened at " + committed + ", last printed commit " + printed);
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
                resumeAfter = committed;
            } finally {
                store.close();
            }
        }
    }

    /** Starts the writer, waits for {@code commits} new commits, kills it; returns the last printed commit. */
    private long runAndKill(long resumeAfter, int commits) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xmx256m",
                "-cp", System.getProperty("java.class.path"), CrashingWriterMain.class.getName(), stateDir.toString()))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        long last = resumeAfter;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII))) {
            for (int seen = 0; seen < commits; ) {
                String line = out.readLine();
                if (line == null) {
                    throw new AssertionError("the writer exited early with status " + p.waitFor());
                }
                if (line.startsWith("committed ")) {
                    last = Long.parseLong(line.substring("committed ".length()));
                    seen++;
                }
            }
        } finally {
            p.destroyForcibly(); // SIGKILL: no shutdown hook, no close
            p.waitFor();
        }
        assertTrue(last > resumeAfter);
        return last;
    }
}
