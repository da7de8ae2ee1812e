package io.most.sharing;

import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Nyx's QoS (thesis Algorithm 3) for one latency-critical (LC) tenant: every window, the LC tenant's
 * slack is {@code (target - P99) / target}. Negative slack caps the best-effort (BE) tenant that
 * interferes most with it a step further; slack above 20% relaxes every BE cap a step. The interferer
 * is found by experiment among the three heaviest BE tenants, because on PM a low-bandwidth writer can
 * hurt more than a high-bandwidth reader; {@code interferenceAware = false} instead throttles the
 * heaviest (Caladan's choice, kept to compare against).
 */
final class QosPolicy extends SharingPolicy {
    static final int CANDIDATES = 3;
    static final double RELAX_SLACK = 0.2;

    private final String latencyCritical;
    private final long targetNanos;
    private final long windowNanos;
    private final double step;
    private final long experimentNanos;
    private final boolean interferenceAware;
    private int lc;

    QosPolicy(String latencyCritical, long targetNanos, long windowNanos, double step, long experimentNanos,
              boolean interferenceAware) {
        if (targetNanos <= 0) {
            throw new IllegalArgumentException("QoS P99 target of '" + latencyCritical + "' must be positive, got "
                    + targetNanos + " ns");
        }
        if (!(step > 0 && step < 1) || windowNanos <= 0 || experimentNanos <= 0) {
            throw new IllegalArgumentException("QoS step must be in (0, 1) and windows positive");
        }
        this.latencyCritical = latencyCritical;
        this.targetNanos = targetNanos;
        this.windowNanos = windowNanos;
        this.step = step;
        this.experimentNanos = experimentNanos;
        this.interferenceAware = interferenceAware;
    }

    @Override
    void check(Probe probe) {
        lc = require(probe, latencyCritical, "the QoS policy");
    }

    @Override
    void iterate(Probe probe) throws InterruptedException {
        Probe.Window w = probe.observe(windowNanos);
        long p99 = w.p99Nanos()[lc];
        if (p99 == 0) {
            return; // the LC tenant served nothing: no latency to protect
        }
        double slack = (double) (targetNanos - p99) / targetNanos;
        if (slack < 0) {
            int[] candidates = IntStream.range(0, probe.size())
                    .filter(i -> i != lc && w.share()[i] > 0)
                    .boxed()
                    .sorted(Comparator.comparingDouble((Integer i) -> w.share()[i]).reversed())
                    .limit(CANDIDATES)
                    .mapToInt(Integer::intValue)
                    .toArray();
            if (candidates.length == 0) {
                return; // nobody else uses the device: the target is out of any throttle's reach
            }
            int interferer = interferenceAware
                    ? probe.mostInterfering(lc, candidates, step, experimentNanos, Probe.Metric.P99_LATENCY, w)
                    : candidates[0];
            probe.tighten(interferer, w.share()[interferer], step);
        } else if (slack > RELAX_SLACK) {
            for (int i = 0; i < probe.size(); i++) {
                if (i != lc) {
                    probe.relax(i, step);
                }
            }
        }
    }

    @Override
    public String toString() {
        return "QoS for " + latencyCritical + " (P99 <= " + targetNanos + " ns" + (interferenceAware ? ""
                : ", throttling the heaviest") + ")";
    }
}
