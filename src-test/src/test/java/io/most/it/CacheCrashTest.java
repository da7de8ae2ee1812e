package io.most.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.most.cache.MostCache;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * Kills a {@link CacheWriterMain} with SIGKILL at random moments, again and again on the same cache
 * files, and checks after each restart the cache's crash contract: every value read is one the
 * workload wrote for that key (never torn), a key reads as its value at the last completed flush or
 * a value written after it or as a miss, and a key removed before a completed flush never comes back.
 */
@Tag("crash")
class CacheCrashTest {
    private static final int KILLS = 24;
    /** The model's mark for "absent" (versions are never 0). */
    private static final long ABSENT = 0;

    @TempDir
    Path dir;

    /** Each key's value (version) as of the last completed flush, or as read after the last restart. */
    private final Map<Integer, Long> durable = new HashMap<>();
    /** Over the restarts: small values found in the regions (overflowed from a full bucket). */
    private long overflowedFound;

    @Test
    void flushedStateSurvivesKillsAndNothingTornOrRemovedComesBack() throws Exception {
        killAndCheck(CacheCrashWorkload.BUCKETS, 16, KILLS, 1414);
    }

    /**
     * A small-item front that holds every small item: the writes since the last flush live in DRAM
     * alone (dirty copies, their older copies removed from the bucket pages), so a kill loses them, and
     * the reopened cache must still read each key as its flushed value, a later one or a miss, never
     * an older one, nor a removed one.
     */
    @Test
    void writesHeldInTheFrontAloneAreLostByAKillWithoutAnyStaleValue() throws Exception {
        killAndCheck(CacheCrashWorkload.BUCKETS, 64, KILLS / 2, 1818);
    }

    /** Four buckets for 300 keys: most small items overflow to the regions, and moves between engines abound. */
    @Test
    void itemsOverflowingFullBucketsSurviveKillsTheSameWay() throws Exception {
        killAndCheck(4, 16, KILLS / 2, 1616);
        assertTrue(overflowedFound > 0, "small items were found in the regions after restarts");
    }

    private void killAndCheck(int buckets, int frontPages, int kills, long seed) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        int flushes = 0;
        int recovered = 0;
        for (int generation = 1; generation <= kills; generation++) {
            String where = "generation " + generation;
            List<String> lines;
            try (ForkedJvm child = ForkedJvm.start(WriterKills.CHILD_JVM_OPTIONS, CacheWriterMain.class,
                    List.of(dir.toString(), String.valueOf(generation), String.valueOf(buckets),
                            String.valueOf(frontPages)))) {
                if (random.nextBoolean()) {
                    // at a random moment: mostly in the middle of a round
                    child.awaitLine("READY"::equals, WriterKills.PATIENCE);
                    Thread.sleep(random.nextInt(1200));
                    assertTrue(child.isAlive(), where + ": the child died before its kill: " + child.stderrTail());
                    assertEquals(WriterKills.SIGKILL_EXIT, child.kill(), where + ": exit status");
                } else {
                    // right after the n-th flush returned: the next round has barely started
                    String flushed = "FLUSHED " + random.nextInt(40);
                    child.killAtLine(flushed::equals);
                    assertEquals(WriterKills.SIGKILL_EXIT, child.awaitExit(WriterKills.PATIENCE), where
                            + ": the child ended before its kill at " + flushed + ": " + child.stderrTail());
                }
                lines = child.lines();
            }
            int completed = (int) lines.stream().filter(l -> l.startsWith("FLUSHED ")).count();
            flushes += completed;
            recovered += verify(generation, completed, buckets, frontPages, where);
        }
        assertTrue(flushes > kills, "the children completed too few flushes to mean anything: " + flushes);
        assertTrue(recovered > 0, "no value ever survived a kill");
    }

    /**
     * Applies the completed rounds to the model, allows the round in flight any of its outcomes, then
     * checks the reopened cache key by key; the state read becomes the model of the next generation.
     */
    private int verify(int generation, int completedRounds, int buckets, int frontPages, String where) {
        for (int round = 0; round < completedRounds; round++) {
            for (CacheCrashWorkload.Op op : CacheCrashWorkload.round(generation, round)) {
                durable.put(op.key(), op.isRemove() ? ABSENT : op.version());
            }
        }
        // the round in flight (and, if the kill came between a flush and its line, the next one) may
        // have reached the files in part: any of its values may be read
        Map<Integer, Set<Long>> later = new HashMap<>();
        for (int round = completedRounds; round <= completedRounds + 1; round++) {
            for (CacheCrashWorkload.Op op : CacheCrashWorkload.round(generation, round)) {
                if (!op.isRemove()) {
                    later.computeIfAbsent(op.key(), k -> new HashSet<>()).add(op.version());
                }
            }
        }
        int present = 0;
        int largeValues = 0;
        List<String> problems = new ArrayList<>();
        try (MostCache cache = MostCache.open(CacheCrashWorkload.config(dir, buckets, frontPages))) {
            for (int key = 0; key < CacheCrashWorkload.KEYS; key++) {
                byte[] value = cache.get(CacheCrashWorkload.key(key));
                long expected = durable.getOrDefault(key, ABSENT);
                if (value == null) {
                    durable.put(key, ABSENT);
                    continue;
                }
                long version = CacheCrashWorkload.versionOf(key, value);
                if (version < 0) {
                    problems.add("key " + key + " holds " + value.length + " bytes the workload never wrote for it");
                } else if (version != expected && !later.getOrDefault(key, Set.of()).contains(version)) {
                    problems.add("key " + key + " holds version " + Long.toHexString(version) + " but its flushed"
                            + " version is " + (expected == ABSENT ? "absent" : Long.toHexString(expected))
                            + " and that is no later write");
                }
                durable.put(key, version);
                present++;
                if (value.length > CacheCrashWorkload.LARGE_ITEM_THRESHOLD) {
                    largeValues++;
                }
            }
            overflowedFound += Math.max(0, cache.stats().largeItemEntries() - largeValues);
        }
        if (!problems.isEmpty()) {
            fail(where + ", " + completedRounds + " rounds flushed: " + problems.size() + " wrong keys, first: "
                    + String.join("; ", problems.subList(0, Math.min(5, problems.size()))));
        }
        return present;
    }
}
