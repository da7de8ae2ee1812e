package io.most.bench.fork;

import io.most.bench.BenchException;
import io.most.bench.driver.RunResult;
import io.most.bench.report.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Runs one measurement in a JVM of its own, as JMH forks: the same {@code java} binary, the same JVM
 * flags (heap, {@code --enable-native-access}, GC), the same class path. Each engine then starts from a
 * cold JIT whose profiles are its own; in one JVM the engine run second inherits call sites the first
 * one made megamorphic and loses 25-50% whichever engine it is.
 *
 * <p>The child is the bench's own command line with {@code --json FILE}; it writes its one run there,
 * and the parent reads it back. The child's stderr (its notes and progress) is passed through line by line; its
 * stdout (the one-row table) is dropped, since the parent prints the aggregated table.
 */
public final class ForkedJvm {
    private final String mainClass;

    /** @param mainClass the class whose {@code main} takes the command line (the bench's Main) */
    public ForkedJvm(String mainClass) {
        this.mainClass = mainClass;
    }

    /** The child's command: java, this JVM's flags, the class path, the main class, then {@code args}. */
    public List<String> command(List<String> args) {
        return command(args, OptionalLong.empty());
    }

    /** As {@link #command(List)}, with a maximum heap of {@code heapBytes} instead of this JVM's, if given. */
    public List<String> command(List<String> args, OptionalLong heapBytes) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        List<String> flags = jvmFlags(ManagementFactory.getRuntimeMXBean().getInputArguments(),
                heapBytes.orElse(Runtime.getRuntime().maxMemory()), heapBytes.isPresent());
        command.addAll(flags);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(args);
        return command;
    }

    /**
     * The flags a child gets: this JVM's, less a debugger agent (its port is taken), plus native access
     * (a {@code java -jar} parent has it from the manifest, which {@code -cp} does not read) and a
     * maximum heap of {@code maxHeapBytes} when no flag set one or when {@code overrideHeap} says this
     * heap replaces the flags' (the run chose the children's heap).
     */
    static List<String> jvmFlags(List<String> parentFlags, long maxHeapBytes, boolean overrideHeap) {
        List<String> flags = new ArrayList<>();
        for (String f : parentFlags) {
            boolean debugger = f.startsWith("-agentlib:jdwp") || f.startsWith("-Xrunjdwp");
            if (!debugger && !(overrideHeap && setsMaxHeap(f))) {
                flags.add(f);
            }
        }
        if (flags.stream().noneMatch(f -> f.startsWith("--enable-native-access"))) {
            flags.add("--enable-native-access=ALL-UNNAMED");
        }
        if (flags.stream().noneMatch(ForkedJvm::setsMaxHeap)) {
            flags.add("-Xmx" + Math.max(1, maxHeapBytes >> 20) + "m");
        }
        return flags;
    }

    private static boolean setsMaxHeap(String flag) {
        return flag.startsWith("-Xmx") || flag.startsWith("-XX:MaxHeapSize") || flag.startsWith("-XX:MaxRAMPercentage");
    }

    /**
     * Runs the child with {@code args} plus {@code --json FILE} and returns its one run.
     *
     * @return its one run, which is a {@link RunResult#failure} if the child recorded one and exited non-zero
     * @throws BenchException if the child fails without recording a failed run, or reports anything but one run
     */
    public Repeater.Measured run(List<String> args, PrintStream err) {
        return run(args, OptionalLong.empty(), err);
    }

    /** As {@link #run(List, PrintStream)}, the child with a maximum heap of {@code heapBytes} if given. */
    public Repeater.Measured run(List<String> args, OptionalLong heapBytes, PrintStream err) {
        Path json = null;
        try {
            json = Files.createTempFile("most-bench-fork-", ".json");
            List<String> childArgs = new ArrayList<>(args);
            childArgs.add("--json");
            childArgs.add(json.toString());
            Process process = new ProcessBuilder(command(childArgs, heapBytes))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            passThrough(process.getErrorStream(), err, "wrote " + json);
            int exit = waitFor(process);
            err.flush();
            if (exit != 0) {
                // a child that recorded its engine's failure reports it as its one run
                RunResult failed = failedRun(json);
                if (failed != null) {
                    return new Repeater.Measured(process.pid(), failed);
                }
                throw new BenchException("the forked run (pid " + process.pid() + ") exited with " + exit + ": "
                        + String.join(" ", args));
            }
            return new Repeater.Measured(process.pid(), onlyRun(Files.readString(json, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot fork a run: " + e.getMessage(), e);
        } finally {
            if (json != null) {
                try {
                    Files.deleteIfExists(json);
                } catch (IOException e) {
                    err.println("note: cannot delete " + json + ": " + e.getMessage());
                }
            }
        }
    }

    /**
     * Copies the child's stderr to {@code err} as it comes, less the line that announces the child's
     * temporary JSON file (an internal hand-over, not news to the user). Text is passed on at each
     * {@code \n} or {@code \r}, so the child's live progress line, rewritten with {@code \r}, still shows.
     */
    static void passThrough(InputStream childErr, PrintStream err, String handOverLine) throws IOException {
        try (var in = new InputStreamReader(childErr, StandardCharsets.UTF_8)) {
            StringBuilder segment = new StringBuilder();
            for (int c = in.read(); c >= 0; c = in.read()) {
                if (c != '\n' && c != '\r') {
                    segment.append((char) c);
                    continue;
                }
                if (c == '\r' || !segment.toString().equals(handOverLine)) {
                    err.print(segment.append((char) c));
                    err.flush();
                }
                segment.setLength(0);
            }
            err.print(segment);
        }
    }

    /** The failed run a child that exited with an error wrote, or null if it wrote none. */
    private static RunResult failedRun(Path json) throws IOException {
        String text = Files.readString(json, StandardCharsets.UTF_8);
        if (text.isBlank()) {
            return null;
        }
        try {
            RunResult run = onlyRun(text);
            return run.failed() ? run : null;
        } catch (RuntimeException e) {
            return null; // not a report: the child failed before it wrote one
        }
    }

    /** The one run of a child's {@code {"runs": [...]}}. */
    @SuppressWarnings("unchecked")
    static RunResult onlyRun(String json) {
        if (Json.read(json) instanceof Map<?, ?> root && root.get("runs") instanceof List<?> runs && runs.size() == 1
                && runs.getFirst() instanceof Map<?, ?> run) {
            return RunResult.ofFields((Map<String, Object>) run);
        }
        throw new BenchException("a forked run must report exactly one run, got: "
                + (json.length() > 200 ? json.substring(0, 200) + "..." : json));
    }

    private static int waitFor(Process process) {
        try {
            return process.waitFor();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new BenchException("interrupted while a forked run was measuring");
        }
    }
}
