package io.most.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.most.kv.KvDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a {@link KvWorkloadMain} with SIGKILL at random moments, again and again on the same database,
 * and checks after each restart: every acknowledged commit is there, nothing aborted or never committed
 * is visible (except the one commit per thread that was in flight), and the B+tree's invariants hold.
 * Twice: with short entries, and with keys and values of the largest sizes on 4 KiB pages (splits at
 * every few inserts, at the limit of the three-maximal-entries rule).
 */
@Tag("crash")
class KvCrashTest {
    private static final int KILLS = 12;

    @TempDir
    Path dir;

    /** The value (version, or null for absent) each key must have, as far as the test knows. */
    private final Map<String, String> expected = new HashMap<>();

    @Test
    void acknowledgedCommitsSurviveKillsAndNothingElseIsVisible() throws Exception {
        killAndVerify(KvCrashStore.Shape.SMALL, KILLS);
    }

    @Test
    void maximalEntriesSurviveKills() throws Exception {
        killAndVerify(KvCrashStore.Shape.MAXIMAL, KILLS / 2);
    }

    private void killAndVerify(KvCrashStore.Shape shape, int kills) throws Exception {
        SplittableRandom random = new SplittableRandom(2026);
        int commitsSeen = 0;
        for (int generation = 1; generation <= kills; generation++) {
            List<String> lines;
            String where = "generation " + generation;
            try (ForkedJvm child = ForkedJvm.start(WriterKills.CHILD_JVM_OPTIONS, KvWorkloadMain.class,
                    List.of(dir.toString(), String.valueOf(generation), shape.name()))) {
                child.awaitLine("READY"::equals, WriterKills.PATIENCE);
                Thread.sleep(200 + random.nextInt(1500));
                assertTrue(child.isAlive(), where + ": child died before its kill: " + child.stderrTail());
                assertEquals(WriterKills.SIGKILL_EXIT, child.kill(), where + ": exit status");
                lines = child.lines();
            }
            commitsSeen += verify(lines, where, shape);
        }
        assertTrue(commitsSeen > kills * 20, "the workload acknowledged too few commits to mean anything: " + commitsSeen);
    }

    /** Applies the transcript to the model, then checks the reopened database against it. */
    private int verify(List<String> lines, String where, KvCrashStore.Shape shape) {
        Map<String, Map<String, String>> pending = new HashMap<>(); // thread -> writes of its unacknowledged commit
        Map<String, String> pendingSeq = new HashMap<>();
        int commits = 0;
        for (String line : lines) {
            String[] f = line.split(" ");
            if (f[0].equals("P")) {
                Map<String, String> writes = new HashMap<>();
                for (int i = 3; i < f.length; i++) {
                    String[] kv = f[i].split("=", 2);
                    writes.put(kv[0], kv[1].equals("-") ? null : kv[1]);
                }
                pending.put(f[1], writes);
                pendingSeq.put(f[1], f[2]);
            } else if (f[0].equals("C")) {
                if (!f[2].equals(pendingSeq.get(f[1]))) {
                    fail(where + ": commit " + line + " without its P line");
                }
                expected.putAll(pending.remove(f[1]));
                commits++;
            }
        }
        try (KvDatabase db = KvCrashStore.open(dir, shape)) {
            long entries = db.verify();
            Set<String> keys = new HashSet<>(expected.keySet());
            pending.values().forEach(w -> keys.addAll(w.keySet()));
            // the in-flight commit of a thread is all or nothing
            Map<String, Boolean> inFlightApplied = new HashMap<>();
            long present = 0;
            for (String key : keys) {
                byte[] stored = db.get(KvWorkloadMain.bytes(key));
                String actual = stored == null ? null : KvWorkloadMain.version(stored);
                present += stored == null ? 0 : 1;
                String want = expected.get(key);
                if (eq(actual, want)) {
                    continue;
                }
                String thread = threadOf(key);
                Map<String, String> inFlight = pending.get(thread);
                if (inFlight != null && inFlight.containsKey(key) && eq(actual, inFlight.get(key))) {
                    inFlightApplied.merge(thread, true, (a, b) -> a && b);
                    continue;
                }
                fail(where + ": key " + key + " holds " + actual + " but the last acknowledged commit wrote " + want
                        + (inFlight == null ? "" : " and the commit in flight wrote " + inFlight.get(key)));
            }
            for (Map.Entry<String, Boolean> e : inFlightApplied.entrySet()) {
                Map<String, String> inFlight = pending.get(e.getKey());
                for (Map.Entry<String, String> w : inFlight.entrySet()) {
                    byte[] stored = db.get(KvWorkloadMain.bytes(w.getKey()));
                    String actual = stored == null ? null : KvWorkloadMain.version(stored);
                    assertTrue(eq(actual, w.getValue()), where + ": the in-flight commit of thread " + e.getKey()
                            + " is only partly visible (" + w.getKey() + " holds " + actual + ")");
                }
                expected.putAll(inFlight);
            }
            assertEquals(present, entries, where + ": the tree holds keys the workload never wrote");
        }
        return commits;
    }

    private static String threadOf(String key) {
        return String.valueOf(Integer.parseInt(key.substring(4)) % KvWorkloadMain.THREADS);
    }

    private static boolean eq(String a, String b) {
        return a == null ? b == null : a.equals(b);
    }

    static Duration patience() {
        return WriterKills.PATIENCE;
    }
}
