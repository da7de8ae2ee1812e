package io.most.sharing;

/**
 * Nyx's fair slowdown (thesis Algorithm 4): a tenant's slowdown is its standalone throughput (measured
 * by pausing the others briefly, refreshed periodically) over its shared throughput. While the largest
 * slowdown exceeds the smallest by more than the threshold, the least slowed tenant is capped a step
 * below its use and the most slowed one's cap is relaxed a step; after enough fair intervals every
 * cap is relaxed, to give back utilization the caps may be wasting. Steps are relative to use, so
 * light and heavy tenants converge alike.
 */
final class FairSlowdownPolicy extends SharingPolicy {
    private final Slowdowns slowdowns;
    private final long intervalNanos;
    private final double threshold;
    private final int fairIntervalsToRelax;
    private final double step;
    private int fairIntervals;

    FairSlowdownPolicy(long refreshNanos, long pauseNanos, long intervalNanos, double threshold,
                       int fairIntervalsToRelax, double step) {
        if (!(threshold >= 1) || !(step > 0 && step < 1) || intervalNanos <= 0 || fairIntervalsToRelax <= 0) {
            throw new IllegalArgumentException("fair slowdown needs a threshold >= 1, a step in (0, 1) and positive"
                    + " intervals");
        }
        this.slowdowns = new Slowdowns(refreshNanos, pauseNanos);
        this.intervalNanos = intervalNanos;
        this.threshold = threshold;
        this.fairIntervalsToRelax = fairIntervalsToRelax;
        this.step = step;
    }

    @Override
    void check(Probe probe) {
        // nothing to resolve: every governed tenant takes part
    }

    @Override
    void iterate(Probe probe) throws InterruptedException {
        int n = probe.size();
        slowdowns.refresh(probe);
        Probe.Window w = probe.observe(intervalNanos);
        double[] slowdown = slowdowns.estimate(w.throughput(), probe);
        int most = -1;
        int least = -1;
        for (int i = 0; i < n; i++) {
            if (Double.isNaN(slowdown[i])) {
                continue; // idle: it has no slowdown to equalize
            }
            if (most < 0 || slowdown[i] > slowdown[most]) {
                most = i;
            }
            if (least < 0 || slowdown[i] < slowdown[least]) {
                least = i;
            }
        }
        if (most < 0 || most == least) {
            return;
        }
        if (slowdown[most] / slowdown[least] > threshold) {
            probe.relaxBy(most, 1 + step);
            probe.tighten(least, w.share()[least], w.share()[least] * step);
            fairIntervals = 0;
        } else if (++fairIntervals > fairIntervalsToRelax) {
            // probe for unused capacity with half a step: a whole one would undo the fairness just reached
            for (int i = 0; i < n; i++) {
                probe.relaxBy(i, 1 + step / 2);
            }
            fairIntervals = 0;
        }
    }

    @Override
    public String toString() {
        return "fair slowdown (unfairness <= " + threshold + ")";
    }
}
