package io.most.bench.streams;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command line of {@link StreamsAppMain}, as {@code name=value} words, written by the coordinator
 * and read by the Streams JVM.
 *
 * @param restart     false: process the input and report the measured window; true: a restart after
 *                    a kill, reporting its first record and what it restored
 * @param bootstrap   the broker
 * @param stateDir    Kafka Streams' {@code state.dir}
 * @param applicationId the application id (the same across a kill and its restart)
 * @param input       input topic
 * @param output      output topic
 * @param settings    what is measured
 * @param report      where the JSON report goes
 */
record AppArgs(boolean restart, String bootstrap, Path stateDir, String applicationId, String input, String output,
               StreamsSettings settings, Path report) {

    List<String> toArgs() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("mode", restart ? "restart" : "measure");
        m.put("bootstrap", bootstrap);
        m.put("state-dir", stateDir.toString());
        m.put("application-id", applicationId);
        m.put("input", input);
        m.put("output", output);
        m.put("workload", settings.workload().id());
        m.put("distribution", settings.distribution().id());
        m.put("engine", settings.engine().id());
        m.put("keys", Long.toString(settings.keys()));
        m.put("measured", Long.toString(settings.measured()));
        m.put("budget", Long.toString(settings.budgetBytes()));
        m.put("threads", Integer.toString(settings.threads()));
        m.put("partitions", Integer.toString(settings.partitions()));
        m.put("guarantee", settings.guarantee());
        m.put("transactional-stores", Boolean.toString(settings.transactionalStores()));
        m.put("theta", Double.toString(settings.theta()));
        m.put("seed", Long.toString(settings.seed()));
        m.put("heap", Long.toString(settings.heapBytes()));
        m.put("report", report.toString());
        List<String> args = new ArrayList<>();
        m.forEach((k, v) -> args.add(k + "=" + v));
        return args;
    }

    static AppArgs parse(String[] args) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String a : args) {
            int eq = a.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("expected name=value, got '" + a + "'");
            }
            m.put(a.substring(0, eq), a.substring(eq + 1));
        }
        StreamsSettings s = new StreamsSettings(
                StreamsWorkload.find(get(m, "workload")).orElseThrow(() -> bad(m, "workload")),
                KeyDistribution.find(get(m, "distribution")).orElseThrow(() -> bad(m, "distribution")),
                StreamsEngine.find(get(m, "engine")).orElseThrow(() -> bad(m, "engine")),
                Long.parseLong(get(m, "keys")), Long.parseLong(get(m, "measured")), Long.parseLong(get(m, "budget")),
                Integer.parseInt(get(m, "threads")), Integer.parseInt(get(m, "partitions")), get(m, "guarantee"),
                Boolean.parseBoolean(get(m, "transactional-stores")),
                Double.parseDouble(get(m, "theta")), Long.parseLong(get(m, "seed")), Long.parseLong(get(m, "heap")),
                true, java.util.Optional.empty());
        return new AppArgs(get(m, "mode").equals("restart"), get(m, "bootstrap"), Path.of(get(m, "state-dir")),
                get(m, "application-id"), get(m, "input"), get(m, "output"), s, Path.of(get(m, "report")));
    }

    private static String get(Map<String, String> m, String name) {
        String v = m.get(name);
        if (v == null) {
            throw new IllegalArgumentException("missing " + name + "=...");
        }
        return v;
    }

    private static IllegalArgumentException bad(Map<String, String> m, String name) {
        return new IllegalArgumentException("unknown " + name + " '" + m.get(name) + "'");
    }
}
