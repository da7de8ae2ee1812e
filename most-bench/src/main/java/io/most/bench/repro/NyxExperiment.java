package io.most.bench.repro;

import io.most.bench.driver.RunResult;
import io.most.bench.report.Panel;
import io.most.bench.sharing.SharingBench;
import io.most.device.IoOp;
import io.most.device.PmProfiles;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The NyxCache figures (thesis ch. 5) on MOST: {@code run --workload nyx-share} steps, several
 * {@code MostCache} tenants on one emulated PM device ({@code optane-pm-2dimm}, the thesis' two-DIMM
 * machine) and one emulated flash device. The steps and readings they share live here.
 *
 * <p>Scale, for this two-core machine: the devices run {@value #SCALE}x slower than the thesis' (its
 * 3 M 4 KiB loads per second become 29 k), so a PM access is a parked wait of 50 us or more that two
 * cores can keep dozens of in flight, rather than a spin of a microsecond that would leave the CPU,
 * not the device, as the resource the tenants contend for; tenants run 1 to 3 threads (thesis: up to
 * 8 per cache, 16 cores); each tenant's data set is 2 MiB (thesis: 10 GB), held in PM; runs last
 * seconds (thesis: tens of seconds). Overhead is the exception: it runs the devices at the thesis'
 * speed, since what it measures is CPU per access.
 */
abstract class NyxExperiment implements Experiment {
    static final String PM = "optane-pm-2dimm";
    static final double SCALE = 100;
    static final String QUICK_WARMUP = "300ms";
    static final String QUICK_DURATION = "800ms";
    static final String QUICK_INTERVAL = "20ms";
    /** A quick run's data set: the fewest keys a tenant loads. */
    static final String QUICK_SIZE = "64k";

    /**
     * The {@code run} arguments of {@code tenants} with this timing ({@code quick}: the quick timing and
     * data sets, whatever is given).
     */
    static List<String> args(boolean quick, String tenants, String warmup, String duration, double scale) {
        List<String> args = new ArrayList<>(List.of("--workload", SharingBench.WORKLOAD, "--tenants", tenants,
                "--pm-profile", PM, "--scale", io.most.bench.repro.ExperimentArgs.intensity(scale)));
        if (quick) {
            args.addAll(List.of("--warmup", QUICK_WARMUP, "--duration", QUICK_DURATION, "--interval", QUICK_INTERVAL,
                    "--size", QUICK_SIZE));
        } else {
            args.addAll(List.of("--warmup", warmup, "--duration", duration, "--interval", "250ms"));
        }
        args.addAll(List.of("--seed", "42"));
        return args;
    }

    /** A step of {@code tenants} under {@code modes}. */
    static Step step(Map<String, Object> params, List<String> args, List<String> modes) {
        return new Step(params, args, modes);
    }

    /**
     * Requests per second of 4 KiB PM loads that use {@code share} of the device at {@code scale}: how the
     * experiments state a tenant's rate as a fraction of the device, as the thesis states loads in GB/s.
     */
    static long rateForShare(double share, double scale) {
        return Math.max(1, Math.round(share * PmProfiles.get(PM, scale).maxIops(IoOp.READ, 4096)));
    }

    /** Tenant {@code tenant}'s field {@code field} ({@code ops_s}, {@code pm_share}, ...) in {@code run}. */
    static double tenant(RunResult run, String tenant, String field) {
        return run.number("t_" + tenant + "_" + field);
    }

    /** The step whose parameter {@code key} is {@code value}. */
    static StepResult at(List<StepResult> results, String key, Object value) {
        return results.stream().filter(r -> value.equals(r.param(key))).findFirst().orElseThrow(
                () -> new IllegalArgumentException("no step with " + key + " = " + value));
    }

    /** The representative repetition's timeline of {@code run}, as rows of fields. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> timeline(RunResult run) {
        if (run.fields().get("timeline") instanceof List<?> rows) {
            return rows.stream().map(r -> (Map<String, Object>) r).toList();
        }
        return List.of();
    }

    /** Series of {@code field} over time for each of {@code runs}, named by their mode; rows from t >= 0 only. */
    static Panel.Xy timelinePanel(String title, String yTitle, Map<String, RunResult> runs, String field) {
        Map<String, List<double[]>> series = new LinkedHashMap<>();
        runs.forEach((name, run) -> {
            List<double[]> points = new ArrayList<>();
            for (Map<String, Object> row : timeline(run)) {
                if (row.get("t_s") instanceof Number t && t.doubleValue() >= 0 && row.get(field) instanceof Number v) {
                    points.add(new double[] {t.doubleValue(), v.doubleValue()});
                }
            }
            series.put(name, points);
        });
        return new Panel.Xy(title, "time in the measured window (s)", yTitle, series);
    }

    /** {@code lo..hi} with {@code decimals} places, "-" when either is missing. */
    static String range(double lo, double hi, int decimals) {
        return Double.isFinite(lo) && Double.isFinite(hi)
                ? String.format(Locale.ROOT, "%." + decimals + "f..%." + decimals + "f", lo, hi) : "-";
    }

    /** The common part of the setup text. */
    static String commonSetup(boolean quick) {
        return "Each tenant is a `MostCache` (8 KiB bucket pages in PM, 16 DRAM frames, no item front, so gets read"
                + " PM; items over 4.5 KiB in flash regions) opened through `SharedTenants` on one emulated " + PM
                + " device and one emulated nvme-pcie4 device, each tenant its own threads picking keys uniformly;"
                + " every mode of a step in a forked JVM of its own. "
                + (quick ? "Quick: " + QUICK_WARMUP + " warm-up, " + QUICK_DURATION + " measured, 64 keys per tenant:"
                        + " a smoke test, not a result."
                        : "Scale: devices " + (int) SCALE + "x slower than the thesis' (29 k 4 KiB loads/s instead of"
                        + " 2.9 M), 1-3 threads per tenant (thesis up to 8 on 16 cores), 2 MiB of data per tenant"
                        + " (thesis 10 GB), seconds per run (thesis tens of seconds).");
    }
}
