package io.most.bench.cli;

import io.most.bench.Units;
import io.most.bench.driver.RunResult;
import io.most.bench.hierarchy.MostBlockTier;
import io.most.bench.hierarchy.PageHierarchy;
import io.most.bench.report.TextTable;
import io.most.bench.workload.SpitfireWorkload;
import io.most.device.DeviceProfile;
import java.util.Locale;

/**
 * The demo's first table: where one run on a DRAM-PM-tiered-volume page store was served, one row
 * per tier, from the run's fields ({@link SpitfireWorkload}, {@link MostBlockTier}).
 *
 * <p>DRAM and PM are byte-addressable and the store counts accesses there, not I/Os: their "reads"
 * are hits (page accesses served by the pool) and PM's "writes" are page images written into PM. Their
 * latency is not measured per access: the PM row shows what loading and storing a whole page costs
 * in the run's PM model ({@code --pm-profile}) at queue depth 1, as a migration pays it (a hit loads
 * 4 KiB, a write persists its changed lines; queueing on the shared device comes on top), and a
 * line under the table says how much of the PM device's capacity the run used, in Nyx cost units ({@code pm_model_busy}). The two block devices
 * show what they served, migration and cleaning traffic included, with the emulated latency their
 * callers saw.
 */
final class TierBreakdown {
    private TierBreakdown() {
    }

    /** The per-tier table of {@code run}, followed by one line on the tiered volume's state. */
    static String of(RunResult run) {
        TextTable table = new TextTable("tier", "device", "size", "reads/hits", "writes", "MiB read", "MiB written",
                "read us", "write us");
        double pageSize = run.number("page_size");
        table.row("DRAM pool", "memory", Units.formatBytes((long) run.number("dram_bytes")),
                count(run.number("dram_hits")), "-", "-", "-", "-", "-");
        boolean pmCost = !Double.isNaN(run.number("pm_page_load_us_model"));
        String pmModel = run.text("pm_profile") + " " + Units.scaleLabel(run.text("pm_profile_source"));
        table.row("PM pool", pmCost ? pmModel + ", mapped file" : "mapped file, no cost",
                Units.formatBytes((long) run.number("pm_bytes")), count(run.number("pm_hits")),
                count(run.number("pm_writes")), "-", mib(run.number("pm_writes") * pageSize),
                pmCost ? modelMicros(run.number("pm_page_load_us_model")) : "-",
                pmCost ? modelMicros(run.number("pm_page_store_us_model")) : "-");
        device(table, run, "performance", PageHierarchy.performanceProfile());
        device(table, run, "capacity", PageHierarchy.capacityProfile());
        String volume = String.format(Locale.ROOT, "%s volume: offloadRatio %.3f, mirrored %s, migrated %s in %s"
                        + " segment moves during the measured window (%s per 10 s)%n", run.text("placement"),
                run.number("offload_ratio"), Units.formatBytes((long) run.number("mirrored_bytes")),
                Units.formatBytes((long) run.number("migrated_bytes")), count(run.number("tier_migrations")),
                RunResult.cell(movesPer10s(run.number("tier_migrations"), run.number("duration_s")), 1));
        String pm = !pmCost || Double.isNaN(run.number("pm_model_busy")) ? ""
                : String.format(Locale.ROOT, "PM model %s: %s loads and %s stores, %s%% of the device's capacity"
                        + " (Nyx cost units) during the measured window%n", pmModel,
                count(run.number("pm_model_loads")), count(run.number("pm_model_stores")),
                RunResult.cell(run.number("pm_model_busy") * 100, 1));
        return table + pm + volume;
    }

    /**
     * Segment moves per 10 s of measured window: the steady-state migration rate the hysteresis keeps
     * low under evenly spread heat (docs/TIERING.md; target below 5). NaN without a window.
     */
    static double movesPer10s(double moves, double seconds) {
        return seconds > 0 ? moves * 10 / seconds : Double.NaN;
    }

    private static void device(TextTable table, RunResult run, String role, DeviceProfile profile) {
        table.row(role + " device", profile.name() + " " + scale(profile),
                Units.formatBytes((long) run.number(role + "_bytes")), count(run.number(role + "_reads")),
                count(run.number(role + "_writes")), mib(run.number(role + "_read_bytes")),
                mib(run.number(role + "_write_bytes")), RunResult.cell(run.number(role + "_read_mean_us"), 1),
                RunResult.cell(run.number(role + "_write_mean_us"), 1));
    }

    /** The model's time for one page at queue depth 1, marked as such: it is charged, not measured. */
    private static String modelMicros(double micros) {
        return RunResult.cell(micros, 1) + " (model)";
    }

    private static String scale(DeviceProfile p) {
        return Units.scaleLabel(p.source());
    }

    private static String count(double value) {
        return RunResult.cell(value, 0);
    }

    private static String mib(double bytes) {
        return RunResult.cell(bytes / (1 << 20), 1);
    }
}
