package io.most.bench.fork;

import io.most.bench.driver.RunResult;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Runs every engine or policy {@code rounds} times, round by round in {@link Rotation} order, each
 * repetition behind the {@link LoadGate}, and folds each one's repetitions into a row of medians
 * ({@link Aggregate}). An item whose run failed ({@link RunResult#failed}) is not run again: its row
 * is that failure.
 *
 * @param <T> what is compared: an engine or policy name, a demo step
 */
public final class Repeater<T> {
    /**
     * Measures one item once: in a forked JVM ({@link ForkedJvm}) or in this one. A failure is a
     * {@link RunResult#failure} row; an exception ends the whole comparison.
     */
    @FunctionalInterface
    public interface Executor<T> {
        Measured run(T item);
    }

    /**
     * One run's result and the process that measured it.
     *
     * @param pid    the measuring process
     * @param result what it reported
     */
    public record Measured(long pid, RunResult result) {
    }

    private final LoadGate gate;
    private final PrintStream log;

    /**
     * @param gate what each repetition waits behind
     * @param log  where the gate's waits and each repetition's start are announced
     */
    public Repeater(LoadGate gate, PrintStream log) {
        this.gate = gate;
        this.log = log;
    }

    /**
     * Runs every item {@code rounds} times and returns one aggregated row per item, in the order of
     * {@code items}.
     */
    public List<RunResult> run(List<T> items, Function<T, String> label, int rounds, Executor<T> executor) {
        if (rounds < 1 || items.isEmpty()) {
            throw new IllegalArgumentException("need at least one round and one item, got " + rounds + " and "
                    + items.size());
        }
        Map<T, List<Repetition>> repetitions = new LinkedHashMap<>();
        items.forEach(i -> repetitions.put(i, new ArrayList<>()));
        Set<T> failed = new HashSet<>();
        for (int round = 0; round < rounds; round++) {
            for (T item : Rotation.round(items, round)) {
                if (failed.contains(item)) {
                    continue; // its row is a failure already; the others' rounds go on
                }
                String what = String.format("%s (round %d/%d)", label.apply(item), round + 1, rounds);
                LoadGate.Outcome outcome = gate.await(what, log);
                Instant start = Instant.now();
                if (rounds > 1) {
                    log.println("repetition: " + what);
                }
                Measured measured = executor.run(item);
                repetitions.get(item).add(new Repetition(round + 1, measured.pid(), start, outcome, gate.loadNow(),
                        measured.result()));
                if (measured.result().failed()) {
                    failed.add(item);
                    if (round + 1 < rounds) {
                        log.println("note: " + label.apply(item) + " failed; its later rounds are skipped");
                    }
                }
            }
        }
        return repetitions.values().stream().map(Aggregate::of).toList();
    }
}
