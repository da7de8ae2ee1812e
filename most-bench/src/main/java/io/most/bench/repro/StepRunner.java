package io.most.bench.repro;

import io.most.bench.cli.Options;
import io.most.bench.cli.RunCommand;
import io.most.bench.cli.RunSpec;
import io.most.bench.cli.SharingCommand;
import io.most.bench.cli.SharingSpec;
import io.most.bench.cli.StreamsCommand;
import io.most.bench.cli.StreamsSpec;
import io.most.bench.driver.RunResult;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Executes the {@link Experiment.Step}s of {@code reproduce} exactly as {@code run} would (the same
 * {@link Options}, {@link RunSpec} and {@link RunCommand}), and remembers each policy's result by its
 * command line: experiments that share runs (Spitfire's Figures 6-8 and Table 2 read the same sweeps;
 * Orthus' Figure 7 reuses MOST Figure 4's read-only runs) measure them once per {@code reproduce}.
 * Every policy of a step gets fresh devices or a fresh store either way, so running one policy alone
 * is the same run as running it in a list.
 */
public final class StepRunner {
    private final PrintStream out;
    private final PrintStream err;
    private final Map<String, RunResult> done = new HashMap<>();
    private int executed;
    private int reused;

    private final List<String> methodArgs;

    /** A runner whose runs are measured once each, in this JVM. */
    public StepRunner(PrintStream out, PrintStream err) {
        this(out, err, List.of("--fork", "0", "--repeat", "1"));
    }

    /**
     * @param methodArgs the {@code run} options of the measuring method ({@code --fork}, {@code --repeat},
     *                   {@code --load-wait}) appended to every step's command line
     */
    public StepRunner(PrintStream out, PrintStream err, List<String> methodArgs) {
        this.out = out;
        this.err = err;
        this.methodArgs = List.copyOf(methodArgs);
    }

    /**
     * The step's runs, one per policy (engine, for the Kafka Streams workloads) in its order, each with the
     * step's parameters as {@code step}.
     */
    public Experiment.StepResult run(Experiment.Step step) {
        List<String> missing = step.policies().stream().filter(p -> !done.containsKey(key(step, p))).toList();
        reused += step.policies().size() - missing.size();
        if (!missing.isEmpty()) {
            List<String> args = new ArrayList<>(step.runArgs());
            args.add(step.itemOption());
            args.add(String.join(",", missing));
            err.println("reproduce: run " + String.join(" ", args));
            args.addAll(methodArgs);
            Options options = Options.ofRun(args);
            List<RunResult> results;
            if (step.streams()) {
                results = new StreamsCommand(out, err).measure(StreamsSpec.parse(options));
                out.print(StreamsCommand.table(results));
            } else if (step.sharing()) {
                results = new SharingCommand(out, err).measure(SharingSpec.parse(options));
                out.print(SharingCommand.table(results));
            } else {
                RunSpec spec = RunSpec.parse(options);
                results = new RunCommand(out, err).measure(spec);
                out.print(RunCommand.tableFor(spec, results));
            }
            out.flush();
            for (RunResult r : results) {
                done.put(key(step, Experiment.StepResult.item(r)), r);
            }
            executed += results.size();
        }
        List<RunResult> runs = step.policies().stream().map(p -> done.get(key(step, p)).with("step", step.params()))
                .toList();
        return new Experiment.StepResult(step, runs);
    }

    /** Policy runs measured so far. */
    public int executed() {
        return executed;
    }

    /** Policy runs served from an earlier step with the same command line. */
    public int reused() {
        return reused;
    }

    private static String key(Experiment.Step step, String policy) {
        return String.join("\u0000", step.runArgs()) + "\u0000" + policy;
    }
}
