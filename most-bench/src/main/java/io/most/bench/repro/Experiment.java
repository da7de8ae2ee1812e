package io.most.bench.repro;

import io.most.bench.Named;
import io.most.bench.driver.RunResult;
import io.most.bench.report.Panel;
import java.util.List;
import java.util.Map;

/**
 * One figure or table of a paper that {@code reproduce} re-measures: the {@code run} invocations it
 * needs ({@link Step}s, executed through the same code path as {@code run}) and how to turn their
 * results into a table beside the paper's numbers and a chart ({@link Findings}).
 */
public interface Experiment extends Named {

    /** The paper and figure, e.g. "MOST (Cerberus), Figure 4: static workloads". */
    String figure();

    /** What was run and how it differs from the paper's setup, for the report. */
    String setup(boolean quick);

    /** The runs, in order; {@code quick} shrinks durations and sizes so a test finishes in seconds. */
    List<Step> steps(boolean quick);

    /** The table, the comparisons with the paper and the chart panels, from the results of {@link #steps}. */
    Findings findings(List<StepResult> results);

    /**
     * One {@code run} invocation.
     *
     * @param params   what this step varies (e.g. {@code intensity: 1.5}), copied into each run's JSON as {@code step}
     * @param runArgs  the arguments of {@code run} without {@code --policies} (or {@code --engines})
     * @param policies the policies, one run each; for a Kafka Streams workload the engines
     */
    record Step(Map<String, Object> params, List<String> runArgs, List<String> policies) {
        public Step {
            params = Map.copyOf(params);
            runArgs = List.copyOf(runArgs);
            policies = List.copyOf(policies);
        }

        /** The whole command line of {@code run}. */
        List<String> commandLine() {
            List<String> all = new java.util.ArrayList<>(runArgs);
            all.add(itemOption());
            all.add(String.join(",", policies));
            return all;
        }

        /** Whether this step runs a Kafka Streams workload, whose items are engines. */
        boolean streams() {
            int at = runArgs.indexOf("--workload");
            return at >= 0 && at + 1 < runArgs.size()
                    && io.most.bench.streams.StreamsWorkload.find(runArgs.get(at + 1)).isPresent();
        }

        /** Whether this step runs the multi-tenant sharing scenario ({@code nyx-share}), whose items are modes. */
        boolean sharing() {
            int at = runArgs.indexOf("--workload");
            return at >= 0 && at + 1 < runArgs.size()
                    && runArgs.get(at + 1).equals(io.most.bench.sharing.SharingBench.WORKLOAD);
        }

        /** The option naming the step's items: {@code --engines} for the Kafka Streams workloads. */
        String itemOption() {
            return streams() ? "--engines" : "--policies";
        }
    }

    /** The runs of one step, one per policy in the step's order. */
    record StepResult(Step step, List<RunResult> runs) {
        /** The run of {@code policy} (or engine, in a step of the Kafka Streams workloads). */
        RunResult run(String policy) {
            return runs.stream().filter(r -> item(r).equals(policy)).findFirst().orElseThrow(
                    () -> new IllegalArgumentException("no run of policy '" + policy + "' in step " + step.params()));
        }

        /** What a run is the run of: its policy, or its engine where it has no policy (Kafka Streams). */
        static String item(RunResult r) {
            return r.fields().containsKey("policy") ? r.text("policy") : r.text("engine");
        }

        /** The step parameter {@code key}. */
        Object param(String key) {
            return step.params().get(key);
        }
    }

    /**
     * What an experiment found.
     *
     * @param headers     columns of the data table
     * @param rows        its rows (cells as text)
     * @param comparisons the paper's claims beside our numbers
     * @param panels      the chart
     */
    record Findings(List<String> headers, List<List<String>> rows, List<Comparison> comparisons, List<Panel> panels) {
    }

    /**
     * One claim of the paper and what we measured for it.
     *
     * @param what  the quantity, e.g. "most / hemem throughput at 2.0x"
     * @param paper the paper's value as the paper states it
     * @param ours  ours, formatted
     */
    record Comparison(String what, String paper, String ours) {
    }
}
