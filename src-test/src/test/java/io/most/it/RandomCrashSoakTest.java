package io.most.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.PageStore;
import io.most.tier.TieredVolume;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A randomized black-box crash soak of every store kind ({@link SoakKind}), against the public API
 * only: a {@link SoakWriterMain} child performs random operations (allocate, write versioned pages,
 * free, read, flush, checkpoint; on the bare volume write, read, force) and announces each; the test
 * kills it with SIGKILL at random moments and starts the next child on the same files, which recovers
 * and reports every page. There are no scripted kill points inside the store: the moments are a random
 * delay after start (during JVM start, the recovery, or the work), a random delay after
 * {@code OPENING} (during the recovery of the previous crash: a reopening child is killed too), the
 * n-th {@code CKPT} or {@code FLUSH} line (during a checkpoint or flush), or the n-th {@code W} line.
 * {@link SoakModel} judges every page every reopened store serves against what the transcripts
 * acknowledged; at the end the test reopens the store itself and judges once more.
 *
 * <p><b>Must hold:</b> 0 lost acknowledged pages, 0 silent wrong reads, 0 failed opens or reads
 * (a page the store finds corrupt must be reported as {@code CorruptPageException}, never returned).
 *
 * <p><b>Duration.</b> By default about 80 s over the five kinds (16 s each, a handful of kills per
 * kind on a loaded two-core machine). Run longer soaks with {@code -Dmost.soak.seconds=<total>}, e.g.
 * {@code ./mvnw -B -pl src-test verify -Dtest=RandomCrashSoakTest -Dmost.soak.seconds=3600}, and
 * another random sequence with {@code -Dmost.soak.seed=<n>} (the seed in use is printed).
 */
@Tag("crash")
class RandomCrashSoakTest {
    private static final long TOTAL_SECONDS = Long.getLong("most.soak.seconds", 80);
    private static final long SEED = Long.getLong("most.soak.seed", System.nanoTime());
    private static final Duration EXIT_PATIENCE = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @EnumSource(SoakKind.class)
    void randomKillsLoseNoAcknowledgedPageAndInventNone(SoakKind kind) throws InterruptedException {
        long perKindNanos = Duration.ofSeconds(TOTAL_SECONDS).toNanos() / SoakKind.values().length;
        SplittableRandom random = new SplittableRandom(SEED ^ kind.ordinal() * 0x9E3779B97F4A7C15L);
        long run = random.nextLong();
        SoakModel model = new SoakModel(!kind.isPageStore());
        List<String> kills = new ArrayList<>();
        int[] byMode = new int[4];
        long start = System.nanoTime();
        for (int cycle = 1; cycle <= 2 || System.nanoTime() - start < perKindNanos; cycle++) {
            String where = kind + " (seed " + SEED + ") cycle " + cycle + ":";
            int mode = random.nextInt(4);
            byMode[mode]++;
            List<String> args = List.of(kind.name(), dir.toString(), Long.toString(random.nextLong()),
                    Long.toString(run), Long.toString(model.nextVersion()));
            String killPoint;
            List<String> lines;
            try (ForkedJvm child = ForkedJvm.start(WriterKills.CHILD_JVM_OPTIONS, SoakWriterMain.class, args)) {
                killPoint = killAtRandomMoment(child, mode, random, kind);
                lines = child.lines();
                String last = lines.isEmpty() ? "" : lines.getLast();
                if (!last.startsWith("ERR") && !last.startsWith("BAD")) {
                    assertEquals(WriterKills.SIGKILL_EXIT, child.kill(), where + " the writer ended by itself"
                            + " before its kill " + killPoint + "; stderr:\n" + child.stderrTail());
                }
            }
            kills.add(killPoint + " after " + lines.size() + " lines");
            model.apply(lines, where + " [killed " + killPoint + "]");
        }
        verifyInProcess(kind, run, model);
        System.out.println("RandomCrashSoakTest " + kind + " seed " + SEED + ": " + kills.size() + " kills (" + byMode[0]
                + " at a random delay, " + byMode[1] + " during recovery, " + byMode[2] + " during checkpoint/flush, "
                + byMode[3] + " at a write); " + model.tally());
        assertTrue(model.lost == 0 && model.wrong == 0 && model.failed == 0, kind + " (seed " + SEED + "): "
                + model.tally() + " over " + kills.size() + " kills:\n  " + String.join("\n  ", model.problems)
                + "\nkills: " + kills);
    }

    /** Kills {@code child} at a moment of kind {@code mode}; returns a description of the moment. */
    private static String killAtRandomMoment(ForkedJvm child, int mode, SplittableRandom random, SoakKind kind)
            throws InterruptedException {
        switch (mode) {
            case 0 -> {
                int delay = random.nextInt(3000);
                Thread.sleep(delay);
                child.kill();
                return delay + " ms after start";
            }
            case 1 -> {
                int delay = random.nextInt(400);
                child.awaitLine("OPENING"::equals, WriterKills.PATIENCE);
                Thread.sleep(delay);
                child.kill();
                return delay + " ms after OPENING (recovery)";
            }
            default -> {
                String word = mode == 2 ? (kind.isPageStore() && random.nextBoolean() ? "CKPT" : "FLUSH") : "W ";
                int nth = 1 + (mode == 2 ? random.nextInt(3) : random.nextInt(3000));
                AtomicInteger seen = new AtomicInteger();
                child.killAtLine(line -> (mode == 2 ? line.equals(word) : line.startsWith(word))
                        && seen.incrementAndGet() == nth);
                long deadline = System.nanoTime() + EXIT_PATIENCE.toNanos();
                while (child.isAlive() && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                child.kill();
                return child.killedAtLine().map(l -> "at line '" + l + "' (#" + nth + ")")
                        .orElse("after " + EXIT_PATIENCE + " without the " + nth + "-th '" + word.trim() + "' line");
            }
        }
    }

    /** Reopens the store in this JVM after the last kill and judges every page once more. */
    private void verifyInProcess(SoakKind kind, long run, SoakModel model) {
        String where = kind + " (seed " + SEED + ") final reopen in the test JVM:";
        AtomicReference<String> doing = new AtomicReference<>("opening the store");
        List<String> served = new ArrayList<>();
        try {
            Liveness.call(where, doing, () -> {
                if (kind.isPageStore()) {
                    try (PageStore store = kind.openStore(dir)) {
                        doing.set("reading every page");
                        SoakWriterMain.scan(store, run, served::add);
                    }
                } else {
                    try (TieredVolume volume = SoakKind.openVolume(dir); Arena arena = Arena.ofConfined()) {
                        doing.set("reading every block");
                        SoakWriterMain.scan(volume, kind.units(), volume.allocate(arena, SoakKind.PAGE), run, served::add);
                    }
                }
                return null;
            });
        } catch (RuntimeException e) {
            served.add("ERR " + SoakWriterMain.oneLine(e));
        }
        served.add("SCANNED");
        model.apply(served, where);
    }
}
