package io.most.bench.hierarchy;

import io.most.bench.Units;
import io.most.device.EmulatedPm;
import io.most.device.IoOp;
import java.util.Map;

/**
 * What a run's PM tier asked of its PM model during the measured window: loads and stores, and the
 * share of the device's capacity they used in Nyx cost units ({@code 1 / MaxIOPS} per access, see
 * {@link EmulatedPm#costPicos}), which unlike bytes counts a small store as the XPLine it costs. The
 * model is the JVM's shared device of the profile; a run uses it alone, so its counters are the run's.
 * The busy share is over the time from the window's start to the report, which the workload writes
 * as its window ends.
 */
final class PmUsage {
    private final EmulatedPm pm;
    private final long loads;
    private final long stores;
    private final long costPicos;
    private final long startNanos;

    private PmUsage(EmulatedPm pm) {
        this.pm = pm;
        this.loads = pm.accesses(IoOp.READ);
        this.stores = pm.accesses(IoOp.WRITE);
        this.costPicos = pm.consumedPicos();
        this.startNanos = System.nanoTime();
    }

    /** Counts from now on; null (nothing to count) without a model. */
    static PmUsage begin(EmulatedPm pm) {
        return pm == null ? null : new PmUsage(pm);
    }

    /** Adds {@code pm_model_loads}, {@code pm_model_stores} and {@code pm_model_busy} (a share of the device). */
    void report(Map<String, Object> fields) {
        long elapsedPicos = Math.max(1, (System.nanoTime() - startNanos) * 1000);
        fields.put("pm_model_loads", pm.accesses(IoOp.READ) - loads);
        fields.put("pm_model_stores", pm.accesses(IoOp.WRITE) - stores);
        fields.put("pm_model_busy", Units.round((double) (pm.consumedPicos() - costPicos) / elapsedPicos, 4));
    }
}
