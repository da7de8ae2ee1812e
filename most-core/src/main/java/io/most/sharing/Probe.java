package io.most.sharing;

import java.util.List;

/**
 * Nyx's information mechanisms over a fixed list of tenants and one resource (thesis §5.2.3):
 * observing use and performance over a window, finding the competitor that interferes most with a
 * victim by briefly throttling each, and estimating a tenant's standalone performance by briefly
 * pausing the others. Each costs the tenants only the experiment's length, so a controller runs them
 * continuously. Used by the controller thread only.
 */
final class Probe {
    /** The least share a throttled tenant keeps, so it still makes progress and its demand stays visible. */
    static final double MIN_SHARE = 0.01;

    private final List<? extends Regulated> tenants;
    private final Resource resource;
    private final SharingClock clock;

    Probe(List<? extends Regulated> tenants, Resource resource, SharingClock clock) {
        this.tenants = List.copyOf(tenants);
        this.resource = resource;
        this.clock = clock;
    }

    /** What happened over one observation window, per tenant index. */
    record Window(double[] share, double[] throughput, long[] p99Nanos, long nanos) {
    }

    /** How a victim's performance is judged: lower latency or higher throughput is better. */
    enum Metric {
        P99_LATENCY, THROUGHPUT;

        double value(Window w, int victim) {
            return this == P99_LATENCY ? w.p99Nanos()[victim] : w.throughput()[victim];
        }

        /** How much better {@code after} is than {@code before}, as a ratio (1 = no change). */
        double improvement(double before, double after) {
            if (this == P99_LATENCY) {
                return after <= 0 ? 1 : before / after;
            }
            return before <= 0 ? (after > 0 ? Double.MAX_VALUE : 1) : after / before;
        }
    }

    int size() {
        return tenants.size();
    }

    Regulated tenant(int i) {
        return tenants.get(i);
    }

    Throttle throttle(int i) {
        return tenants.get(i).throttle(resource);
    }

    long used(int i) {
        return tenants.get(i).usedPicos(resource);
    }

    long now() {
        return clock.nanoTime();
    }

    void sleep(long nanos) throws InterruptedException {
        clock.sleep(nanos);
    }

    /** Watches every tenant for {@code nanos}. */
    Window observe(long nanos) throws InterruptedException {
        int n = tenants.size();
        long[] used = new long[n];
        long[] requests = new long[n];
        for (int i = 0; i < n; i++) {
            used[i] = used(i);
            requests[i] = tenants.get(i).requests();
            tenants.get(i).resetWindow();
        }
        long start = clock.nanoTime();
        clock.sleep(nanos);
        long elapsed = Math.max(1, clock.nanoTime() - start);
        double[] share = new double[n];
        double[] throughput = new double[n];
        long[] p99 = new long[n];
        for (int i = 0; i < n; i++) {
            share[i] = (used(i) - used[i]) / (elapsed * 1000.0);
            throughput[i] = (tenants.get(i).requests() - requests[i]) * 1e9 / elapsed;
            p99[i] = tenants.get(i).windowP99Nanos();
        }
        return new Window(share, throughput, p99, elapsed);
    }

    /**
     * Interference analysis: throttles each candidate in turn by the same expense, {@code step} of the
     * device below what it used in {@code baseline}, for {@code nanos}, and returns the candidate whose
     * throttling improved {@code victim}'s {@code metric} most. Every throttle is restored after its
     * experiment. With one candidate, returns it without an experiment.
     */
    int mostInterfering(int victim, int[] candidates, double step, long nanos, Metric metric, Window baseline)
            throws InterruptedException {
        if (candidates.length == 1) {
            return candidates[0];
        }
        double before = metric.value(baseline, victim);
        int best = candidates[0];
        double bestGain = Double.NEGATIVE_INFINITY;
        for (int c : candidates) {
            Throttle throttle = throttle(c);
            Throttle.Setting saved = throttle.setting();
            try {
                tighten(c, baseline.share()[c], step);
                double gain = metric.improvement(before, metric.value(observe(nanos), victim));
                if (gain > bestGain) {
                    bestGain = gain;
                    best = c;
                }
            } finally {
                throttle.restore(saved);
            }
        }
        return best;
    }

    /**
     * Slowdown estimation's standalone measurement: clears {@code tenant}'s throttle, stalls every other
     * tenant for {@code nanos}, and returns the tenant's throughput meanwhile (requests per second).
     * Every throttle is restored afterwards.
     */
    double aloneThroughput(int tenant, long nanos) throws InterruptedException {
        int n = tenants.size();
        Throttle.Setting[] saved = new Throttle.Setting[n];
        for (int i = 0; i < n; i++) {
            saved[i] = throttle(i).setting();
        }
        try {
            for (int i = 0; i < n; i++) {
                if (i == tenant) {
                    throttle(i).clear();
                } else {
                    throttle(i).stall();
                }
            }
            return observe(nanos).throughput()[tenant];
        } finally {
            for (int i = 0; i < n; i++) {
                throttle(i).restore(saved[i]);
            }
        }
    }

    /** Caps tenant {@code i} at {@code step} of the device below the lesser of its cap and its use. */
    void tighten(int i, double use, double step) {
        Throttle t = throttle(i);
        t.setShare(Math.max(MIN_SHARE, Math.min(t.share(), use) - step));
    }

    /** Raises tenant {@code i}'s cap by {@code step} of the device, removing it once it reaches the whole. */
    void relax(int i, double step) {
        Throttle t = throttle(i);
        if (t.isCapped()) {
            t.setShare(Math.min(1, t.share() + step));
        }
    }

    /** Multiplies tenant {@code i}'s cap by {@code factor} (> 1), removing it once it reaches the whole. */
    void relaxBy(int i, double factor) {
        Throttle t = throttle(i);
        if (t.isCapped()) {
            t.setShare(Math.min(1, t.share() * factor));
        }
    }

    /** Resumes every stalled tenant and removes every cap and delay: what a stopping controller leaves. */
    void clearAll() {
        for (int i = 0; i < tenants.size(); i++) {
            throttle(i).clear();
        }
    }

    /** Index of the tenant named {@code name}, or -1. */
    int indexOf(String name) {
        for (int i = 0; i < tenants.size(); i++) {
            if (tenants.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
