package io.most.bench.repro;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The {@code run} arguments the experiments share, at full or {@code --quick} scale, built in one
 * place so that experiments asking for the same run produce the same command line (and
 * {@link StepRunner} measures it once).
 *
 * <p>Full scale is a documented medium setting that lets {@code reproduce all} finish in about half an
 * hour on two cores: tier runs use a 128 MiB data set (performance device 64 MiB) and 96 driver threads
 * (enough to keep both emulated devices queued at 2x load); page runs a 512 MiB data set over 16 MiB
 * DRAM and 64 MiB PM (DRAM:PM 1:4, data 6.4x the buffers, as the bench's defaults), 2 threads.
 */
final class ExperimentArgs {
    /** Tier runs: warm-up and measured time at full scale. */
    static final String TIER_WARMUP = "6s";
    static final String TIER_DURATION = "4s";
    /** Page runs: enough warm-up to fill 80 MiB of buffers at this machine's ~10k ops/s. */
    static final String PAGE_WARMUP = "5s";
    static final String PAGE_DURATION = "5s";
    static final String PAGE_PM = "64m";
    static final String PAGE_DRAM = "16m";
    static final String QUICK_PAGE_PM = "8m";
    static final String QUICK_PAGE_DRAM = "2m";

    private ExperimentArgs() {
    }

    /** A tier workload on {@code optane-nvme}, open loop at {@code intensity}. */
    static List<String> tier(boolean quick, String workload, double intensity, String warmup, String duration) {
        return tier(quick, "optane-nvme", workload, intensity, warmup, duration);
    }

    /** A tier workload on {@code hierarchy}, open loop at {@code intensity} (of its fastest device). */
    static List<String> tier(boolean quick, String hierarchy, String workload, double intensity, String warmup,
                             String duration) {
        List<String> args = new ArrayList<>(List.of("--workload", workload, "--hierarchy", hierarchy,
                "--intensity", intensity(intensity)));
        if (quick) {
            args.addAll(List.of("--size", "16m", "--threads", "32", "--warmup", "200ms", "--duration", "300ms"));
        } else {
            args.addAll(List.of("--size", "128m", "--threads", "96", "--warmup", warmup, "--duration", duration));
        }
        args.addAll(List.of("--seed", "42"));
        return args;
    }

    /**
     * {@code intensity} as given, at least one decimal ("1.0", "1.25"). With one decimal always, 1.25 and
     * 1.75 ran as 1.3 and 1.8 under their own labels ({@code reproduce most-three-tiers}, 2026-11-24).
     */
    static String intensity(double intensity) {
        BigDecimal d = BigDecimal.valueOf(intensity).stripTrailingZeros();
        return (d.scale() < 1 ? d.setScale(1) : d).toPlainString();
    }

    /** A tier workload with the default full-scale timing. */
    static List<String> tier(boolean quick, String workload, double intensity) {
        return tier(quick, workload, intensity, TIER_WARMUP, TIER_DURATION);
    }

    /** A Spitfire workload on {@code dram-pm-ssd} with the given pools (quick: ignored, the quick pools). */
    static List<String> page(boolean quick, String workload, String dram, String pm, String warmup, String duration) {
        List<String> args = new ArrayList<>(List.of("--workload", workload, "--hierarchy", "dram-pm-ssd",
                "--threads", "2"));
        if (quick) {
            args.addAll(List.of("--size", "32m", "--dram", dram, "--pm", pm, "--warmup", "200ms",
                    "--duration", "300ms"));
        } else {
            args.addAll(List.of("--size", "512m", "--dram", dram, "--pm", pm, "--warmup", warmup,
                    "--duration", duration));
        }
        args.addAll(List.of("--seed", "42"));
        return args;
    }

    /** A Spitfire workload with the standard pools and timing. */
    static List<String> page(boolean quick, String workload) {
        return page(quick, workload, quick ? QUICK_PAGE_DRAM : PAGE_DRAM, quick ? QUICK_PAGE_PM : PAGE_PM,
                PAGE_WARMUP, PAGE_DURATION);
    }
}
