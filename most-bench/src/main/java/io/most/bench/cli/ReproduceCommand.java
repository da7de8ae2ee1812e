package io.most.bench.cli;

import io.most.bench.UsageException;
import io.most.bench.report.Charts;
import io.most.bench.repro.Experiment;
import io.most.bench.repro.Experiments;
import io.most.bench.repro.ReproductionReport;
import io.most.bench.repro.StepRunner;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code reproduce <experiment[,experiment...]|all> [--out DIR] [--quick]}: runs each experiment's steps
 * through the {@code run} code path ({@link StepRunner}) and writes {@code DIR/<name>.json}, {@code .png}
 * and {@code .md} per experiment. Experiments named together share the runs they have in common.
 */
final class ReproduceCommand {
    private static final String DEFAULT_OUT = "repro-out";
    /** Rounds when {@code --repeat} is not given: a full reproduce already takes about an hour. */
    static final int DEFAULT_REPEAT = 1;

    private final PrintStream out;
    private final PrintStream err;

    ReproduceCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /**
     * The experiments {@code names} stands for: {@code all} (every one, in registry order) or a
     * comma-separated list, in the order given.
     */
    static List<Experiment> select(String names) {
        if (names.equals("all")) {
            return List.copyOf(Experiments.registry().all());
        }
        List<Experiment> selected = new ArrayList<>();
        for (String name : names.split(",", -1)) {
            selected.add(Experiments.registry().find(name.strip()).orElseThrow(() -> new UsageException(
                    "unknown experiment '" + name + "'; valid experiments: all, "
                            + String.join(", ", Experiments.registry().names()))));
        }
        return List.copyOf(selected);
    }

    /** Runs the experiment {@code line} names with its options; returns the exit code. */
    int execute(Options line) {
        List<Experiment> experiments = select(line.positional().orElseThrow(() -> new UsageException(
                "'reproduce' needs an experiment: all, " + String.join(", ", Experiments.registry().names()))));
        Path dir = outputDirectory(line.value("out").orElse(DEFAULT_OUT));
        boolean quick = line.flag("quick");
        RunMethod method = RunMethod.parse(line, DEFAULT_REPEAT);
        StepRunner runner = new StepRunner(out, err, List.of("--fork", method.fork() ? "1" : "0", "--repeat",
                String.valueOf(method.repeat()), "--load-wait", method.loadWaitNanos() / 1_000_000 + "ms"));
        long start = System.nanoTime();
        for (Experiment e : experiments) {
            reproduce(e, quick, dir, runner);
        }
        err.printf(Locale.ROOT, "reproduce: %d experiment(s), %d runs measured, %d reused, %.1f min; files in %s%n",
                experiments.size(), runner.executed(), runner.reused(), (System.nanoTime() - start) / 60e9, dir);
        return 0;
    }

    private void reproduce(Experiment e, boolean quick, Path dir, StepRunner runner) {
        err.println("reproduce: " + e.name() + ": " + e.figure());
        long start = System.nanoTime();
        List<Experiment.StepResult> results = new ArrayList<>();
        for (Experiment.Step step : e.steps(quick)) {
            results.add(runner.run(step));
        }
        Experiment.Findings findings = e.findings(results);
        ReproductionReport report = new ReproductionReport(e, quick, results, findings,
                (System.nanoTime() - start) / 1e9);
        write(dir.resolve(e.name() + ".json"), report.json() + "\n");
        Charts.write(dir.resolve(e.name() + ".png"), findings.panels());
        write(dir.resolve(e.name() + ".md"), report.markdown(e.name() + ".png"));
        err.println("reproduce: wrote " + dir.resolve(e.name()) + ".{json,png,md}");
    }

    /** Creates {@code text} (and its parents) if needed; a usage error if it is a file or cannot be created. */
    private static Path outputDirectory(String text) {
        Path dir = Path.of(text);
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new UsageException("--out '" + text + "' is a file; give a directory (created if missing)");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UsageException("--out '" + text + "': cannot create the directory: " + e.getMessage());
        }
        if (!Files.isWritable(dir)) {
            throw new UsageException("--out '" + text + "' is not writable");
        }
        return dir;
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
