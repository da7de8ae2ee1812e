package io.most.bench.cli;

import io.most.bench.Units;
import io.most.bench.UsageException;
import java.util.OptionalLong;

/**
 * How a command measures: {@code --fork} (each run in a JVM of its own, or all in this one),
 * {@code --repeat} (rounds of rotated runs) and {@code --load-wait} (the bound on waiting for a quiet
 * machine before each repetition) and {@code --heap} (the forked runs' maximum heap).
 *
 * @param fork          whether each run gets a JVM of its own
 * @param repeat        rounds, 1..{@value #MAX_REPEAT}
 * @param loadWaitNanos the longest wait for the machine to be quiet ({@link io.most.bench.fork.LoadGate});
 *                      0 = never wait
 * @param heapBytes     each forked run's maximum heap; empty = the command's default
 */
record RunMethod(boolean fork, int repeat, long loadWaitNanos, OptionalLong heapBytes) {
    static final int MAX_REPEAT = 100;
    /** The wait of a measurement ({@code run}, {@code reproduce}): a minute outlasts a compile or a test class. */
    static final long DEFAULT_LOAD_WAIT_NANOS = 60_000_000_000L;
    /** What a forked child runs with: itself, once, without waiting (its parent waited). */
    static final RunMethod CHILD = new RunMethod(false, 1, 0, OptionalLong.empty());

    /** The method options of a measurement: {@code defaultRepeat} rounds, a minute's load wait unless given. */
    static RunMethod parse(Options line, int defaultRepeat) {
        return parse(line, defaultRepeat, DEFAULT_LOAD_WAIT_NANOS);
    }

    /** The method options of {@code line}, with these defaults for {@code --repeat} and {@code --load-wait}. */
    static RunMethod parse(Options line, int defaultRepeat, long defaultLoadWaitNanos) {
        boolean fork = line.value("fork").map(RunMethod::parseFork).orElse(true);
        int repeat = line.value("repeat").map(RunMethod::parseRepeat).orElse(defaultRepeat);
        long wait = line.value("load-wait").map(v -> Units.parseDurationNanos("--load-wait", v, true))
                .orElse(defaultLoadWaitNanos);
        OptionalLong heap = line.value("heap").map(v -> OptionalLong.of(Units.parseSize("--heap", v)))
                .orElse(OptionalLong.empty());
        return new RunMethod(fork, repeat, wait, heap);
    }

    /** This method with {@code heap} as the forked runs' heap. */
    RunMethod withHeap(OptionalLong heap) {
        return new RunMethod(fork, repeat, loadWaitNanos, heap);
    }

    /** The method as a report states it: {@code fork}, {@code repeat}, {@code load_wait_s}. */
    java.util.Map<String, Object> fields() {
        java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("fork", fork);
        m.put("repeat", repeat);
        m.put("load_wait_s", io.most.bench.Units.round(loadWaitNanos / 1e9, 1));
        return m;
    }

    /** Whether this is today's single in-process pass: nothing forked, nothing repeated. */
    boolean singlePass() {
        return !fork && repeat == 1;
    }

    private static boolean parseFork(String text) {
        return switch (text.trim()) {
            case "0" -> false;
            case "1" -> true;
            default -> throw new UsageException("--fork '" + text + "' must be 1 (each run in a JVM of its own, the"
                    + " default) or 0 (all runs in this JVM)");
        };
    }

    private static int parseRepeat(String text) {
        return (int) Units.parseWhole("--repeat", text, 1, MAX_REPEAT);
    }
}
