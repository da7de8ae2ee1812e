package io.most.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The harness itself: lines, kills, partial lines, exit status and diagnostics. */
class ForkedJvmTest {
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    /** A child for these tests; see the modes in {@link #main}. */
    public static final class Child {
        private Child() {
        }

        /**
         * {@code ticks}: prints READY, then "tick i" every 2 ms until killed. {@code partial}: prints
         * "whole" and an unterminated "cut" in one write, then sleeps. {@code fail <code>}: prints to
         * standard error and exits with {@code code}. {@code burst}: writes ~60 KB of lines ending
         * with "LAST" in one write (it fits in the pipe), then sleeps.
         */
        public static void main(String[] args) throws InterruptedException {
            ForkedJvm.exitWhenParentDies();
            ForkedJvm.LineWriter out = ForkedJvm.lineWriter();
            switch (args[0]) {
                case "ticks" -> {
                    out.println("READY");
                    for (int i = 0; ; i++) {
                        out.println("tick " + i);
                        Thread.sleep(2);
                    }
                }
                case "partial" -> {
                    // not closed: closing it would end the output before the kill does
                    var raw = new java.io.FileOutputStream(java.io.FileDescriptor.out);
                    try {
                        raw.write("whole\ncut".getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                    Thread.sleep(60_000);
                }
                case "burst" -> {
                    StringBuilder burst = new StringBuilder();
                    for (int i = 0; burst.length() < 60_000; i++) {
                        burst.append("burst line ").append(i).append('\n');
                    }
                    out.println(burst + "LAST");
                    Thread.sleep(60_000);
                }
                case "fail" -> {
                    System.err.println("child failing on purpose");
                    System.exit(Integer.parseInt(args[1]));
                }
                default -> throw new IllegalArgumentException(args[0]);
            }
        }
    }

    @Test
    void killAtLineKillsAtThatLineAndKeepsTheTranscript() {
        try (ForkedJvm child = ForkedJvm.start(Child.class, "ticks")) {
            assertEquals("READY", child.awaitLine("READY"::equals, PATIENCE));
            child.killAtLine("tick 5"::equals);
            assertEquals(128 + 9, child.awaitExit(PATIENCE), child.stderrTail());
            assertFalse(child.isAlive());
            assertEquals(Optional.of("tick 5"), child.killedAtLine());
            List<String> lines = child.lines();
            assertEquals(List.of("READY", "tick 0", "tick 1", "tick 2", "tick 3", "tick 4", "tick 5"),
                    lines.subList(0, 7));
        }
    }

    @Test
    void killAtLineFiresOnALineThatArrivedBeforeItWasArmed() throws InterruptedException {
        // what a busy machine does to the test above: the reader is already past the trigger line when
        // the test thread gets to arm it
        try (ForkedJvm child = ForkedJvm.start(Child.class, "ticks")) {
            assertEquals("READY", child.awaitLine("READY"::equals, PATIENCE));
            long deadline = System.nanoTime() + PATIENCE.toNanos();
            while (!child.lines().contains("tick 10") && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertTrue(child.lines().contains("tick 10"), "the child ticked: " + child.lines().size() + " lines");
            child.killAtLine("tick 5"::equals);
            assertEquals(128 + 9, child.awaitExit(PATIENCE), child.stderrTail());
            assertEquals(Optional.of("tick 5"), child.killedAtLine());
        }
    }

    @Test
    void killReturnsSigkillStatus() {
        try (ForkedJvm child = ForkedJvm.start(Child.class, "ticks")) {
            child.awaitLine(line -> line.equals("tick 2"), PATIENCE);
            assertTrue(child.isAlive());
            assertEquals(128 + 9, child.kill());
            assertTrue(child.lines().contains("tick 2"));
        }
    }

    @Test
    void linesWrittenBeforeTheKillAreNotLost() {
        try (ForkedJvm child = ForkedJvm.start(Child.class, "burst")) {
            child.awaitLine("burst line 0"::equals, PATIENCE);
            child.kill(); // the reader has most of the burst still to read from the pipe
            List<String> lines = child.lines();
            assertEquals("LAST", lines.getLast(), "last of " + lines.size() + " lines");
        }
    }

    @Test
    void aLineCutByTheKillIsNotALine() {
        try (ForkedJvm child = ForkedJvm.start(Child.class, "partial")) {
            child.awaitLine("whole"::equals, PATIENCE);
            child.kill();
            assertEquals(List.of("whole"), child.lines());
            assertEquals(Optional.of("cut"), child.partialLastLine());
        }
    }

    @Test
    void exitStatusAndStandardErrorReachTheTest() {
        try (ForkedJvm child = ForkedJvm.start(Child.class, "fail", "7")) {
            AssertionError missing = assertThrows(AssertionError.class,
                    () -> child.awaitLine("never"::equals, PATIENCE));
            assertTrue(missing.getMessage().contains("exit status 7")
                    && missing.getMessage().contains("child failing on purpose"), missing.getMessage());
            assertEquals(7, child.awaitExit(PATIENCE));
        }
    }
}
