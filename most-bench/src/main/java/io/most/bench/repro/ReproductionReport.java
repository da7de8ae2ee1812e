package io.most.bench.repro;

import io.most.bench.Units;
import io.most.bench.fork.Machine;
import io.most.bench.report.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The three files of one reproduced experiment, as text: the JSON of every run, and a markdown section
 * naming the paper's figure, the command, the paper's numbers beside ours, the chart and a slot for
 * the note a person writes after reading the numbers.
 *
 * @param experiment what was reproduced
 * @param quick      whether with {@code --quick} sizes
 * @param results    every step's runs
 * @param findings   the experiment's reading of them
 * @param elapsedSeconds wall time of the experiment's runs (reused runs cost nothing here)
 */
public record ReproductionReport(Experiment experiment, boolean quick, List<Experiment.StepResult> results,
                          Experiment.Findings findings, double elapsedSeconds) {
    static final String JAR = "java -jar most-bench/target/most-bench.jar";
    /** Marks where the note goes, so a person (or a script) can find and fill it. */
    static final String NOTE_SLOT = "<!-- note: why our numbers differ from the paper's, written after reading them -->";

    /** The command that reproduces this experiment. */
    String command() {
        return JAR + " reproduce " + experiment.name() + (quick ? " --quick" : "") + " --out DIR";
    }

    /** {@code {"experiment", "figure", "command", "quick", "elapsed_s", "steps", "runs"}}. */
    public String json() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("experiment", experiment.name());
        root.put("figure", experiment.figure());
        root.put("command", command());
        root.put("quick", quick);
        root.put("elapsed_s", Units.round(elapsedSeconds, 1));
        root.put("machine", Machine.fields());
        List<Object> steps = new ArrayList<>();
        List<Object> runs = new ArrayList<>();
        for (Experiment.StepResult r : results) {
            Map<String, Object> step = new LinkedHashMap<>();
            step.put("params", r.step().params());
            step.put("command", JAR + " run " + String.join(" ", r.step().commandLine()));
            steps.add(step);
            r.runs().forEach(run -> runs.add(run.fields()));
        }
        root.put("steps", steps);
        root.put("comparisons", findings.comparisons().stream().map(c -> Map.of("what", c.what(), "paper", c.paper(),
                "ours", c.ours())).toList());
        root.put("runs", runs);
        return Json.write(root);
    }

    /** The markdown section; the chart is linked as {@code imagePath}. */
    public String markdown(String imagePath) {
        StringBuilder md = new StringBuilder();
        md.append("### ").append(experiment.figure()).append(" (`").append(experiment.name()).append("`)\n\n");
        md.append("Reproduce: `").append(command()).append("` (")
                .append(String.format(Locale.ROOT, "%.0f s of runs here, not counting runs shared with an earlier"
                        + " experiment of the same reproduce", elapsedSeconds)).append(quick
                        ? "; --quick: shortened runs, numbers are a smoke test, not a result" : "").append(").\n\n");
        md.append(experiment.setup(quick)).append("\n\n");
        md.append("Measured on ").append(Machine.describe().replaceFirst("^machine: ", "")).append(".\n\n");
        md.append("| paper's claim | paper | ours |\n|---|---|---|\n");
        for (Experiment.Comparison c : findings.comparisons()) {
            md.append("| ").append(cell(c.what())).append(" | ").append(cell(c.paper())).append(" | ")
                    .append(cell(c.ours())).append(" |\n");
        }
        md.append('\n');
        md.append("| ").append(String.join(" | ", findings.headers())).append(" |\n|");
        md.append("---|".repeat(findings.headers().size())).append('\n');
        for (List<String> row : findings.rows()) {
            md.append("| ").append(String.join(" | ", row.stream().map(ReproductionReport::cell).toList()))
                    .append(" |\n");
        }
        md.append("\n![").append(experiment.name()).append("](").append(imagePath).append(")\n\n");
        md.append("<details><summary>The runs (each one <code>run</code> command)</summary>\n\n```sh\n");
        for (Experiment.StepResult r : results) {
            md.append(JAR).append(" run ").append(String.join(" ", r.step().commandLine())).append('\n');
        }
        md.append("```\n</details>\n\n");
        md.append("**Note.** ").append(NOTE_SLOT).append("\n");
        return md.toString();
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
