package io.most.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

/** Runs a {@link PageStoreWriterMain} in a child JVM and kills it with SIGKILL, for the page-store crash tests. */
final class WriterKills {
    static final int SIGKILL_EXIT = 128 + 9;
    static final Duration PATIENCE = Duration.ofSeconds(60);
    static final List<String> CHILD_JVM_OPTIONS = List.of("-Xmx96m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    /** How and when the writer was killed, and every complete line it printed. */
    record KillOutcome(String killPoint, List<String> lines) {
    }

    private WriterKills() {
    }

    /**
     * Runs the writer on {@code storeDir} and kills it at a moment drawn from {@code random}: a random
     * delay after {@code READY} (possibly during the allocations) or after {@code CHECKPOINT 0}, the
     * arrival of the n-th {@code ROUND} line, or of the n-th durable line ({@code CHECKPOINT} or
     * {@code FLUSHED}, right after the call returned). Fails if the writer died by itself.
     */
    static KillOutcome atRandomMoment(Path storeDir, CrashStoreSpec spec, SplittableRandom random, String where)
            throws InterruptedException {
        String durableWord = spec.flushOnly() ? "FLUSHED " : "CHECKPOINT ";
        try (ForkedJvm child = ForkedJvm.start(CHILD_JVM_OPTIONS, PageStoreWriterMain.class, spec.toArgs(storeDir))) {
            String killPoint;
            int mode = random.nextInt(4);
            if (mode < 2) {
                String after = mode == 0 ? "READY" : "CHECKPOINT 0";
                int delayMillis = random.nextInt(mode == 0 ? 2500 : 1500);
                child.awaitLine(after::equals, PATIENCE);
                Thread.sleep(delayMillis);
                assertTrue(child.isAlive(), where + " child " + child + " died before its kill" + tail(child));
                assertEquals(SIGKILL_EXIT, child.kill(), where + " exit status of killed child " + child);
                killPoint = delayMillis + " ms after " + after;
            } else {
                boolean atRound = mode == 2;
                int nth = atRound ? 1 + random.nextInt(60) : 1 + random.nextInt(8);
                String prefix = atRound ? "ROUND " : durableWord;
                AtomicInteger seen = new AtomicInteger();
                child.killAtLine(line -> line.startsWith(prefix) && !line.equals("CHECKPOINT 0")
                        && seen.incrementAndGet() == nth);
                assertEquals(SIGKILL_EXIT, child.awaitExit(PATIENCE), where + " child " + child
                        + " ended before its kill at " + prefix + "line " + nth + tail(child));
                killPoint = "at " + child.killedAtLine().orElseThrow();
            }
            return new KillOutcome(killPoint, child.lines());
        }
    }

    /**
     * Runs the writer (whose spec has a {@link CrashStoreSpec#parkAfterRound()}) until it is parked
     * after that round's durable line, then kills it: a crash with no store operation in flight.
     */
    static KillOutcome whileParked(Path storeDir, CrashStoreSpec spec, String where) {
        try (ForkedJvm child = ForkedJvm.start(CHILD_JVM_OPTIONS, PageStoreWriterMain.class, spec.toArgs(storeDir))) {
            child.awaitLine("PARKED"::equals, PATIENCE);
            assertEquals(SIGKILL_EXIT, child.kill(), where + " exit status of killed child " + child);
            return new KillOutcome("while parked after round " + spec.parkAfterRound(), child.lines());
        }
    }

    private static String tail(ForkedJvm child) {
        List<String> lines = child.lines();
        return "; its last lines:\n  " + String.join("\n  ", lines.subList(Math.max(0, lines.size() - 5), lines.size()))
                + "\nstandard error:\n" + child.stderrTail();
    }
}
