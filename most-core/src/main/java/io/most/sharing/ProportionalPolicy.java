package io.most.sharing;

import java.util.Arrays;
import java.util.Map;

/**
 * Nyx's proportional resource allocation (thesis Algorithm 5): each epoch, every tenant may use its
 * assigned share of the device (cost units, so "a weight of 2 out of 3" means at least 2/3 of its
 * standalone performance, whatever its access pattern) and stalls until the next epoch once it has.
 * Between epochs shares are re-assigned from what each tenant wants:
 * <ul>
 *   <li>a tenant that ran out wants {@code assigned / (fraction of the epoch it took to run out)};</li>
 *   <li>a tenant that left resources idle donates a step of its share while its slowdown stays under
 *       its bound ({@code totalWeight / weight}), and takes a step back when the donation's
 *       interference pushed it over: donated resources may be writes that hurt the donor;</li>
 * </ul>
 * and the device is divided by weighted max-min fairness over those wants, so no tenant is ever given
 * less than the lesser of its want and its weighted share.
 */
final class ProportionalPolicy extends SharingPolicy {
    private final Map<String, Integer> weights;
    private final long tickNanos;
    private final int ticksPerEpoch;
    private final double donateStep;
    private final Slowdowns slowdowns;
    private double[] weight;
    private double totalWeight;
    private double[] assigned;

    ProportionalPolicy(Map<String, Integer> weights, long tickNanos, int ticksPerEpoch, double donateStep,
                       long refreshNanos, long pauseNanos) {
        weights.forEach((name, w) -> {
            if (w == null || w <= 0) {
                throw new IllegalArgumentException("proportional weight of tenant '" + name + "' must be positive,"
                        + " got " + w);
            }
        });
        if (tickNanos <= 0 || ticksPerEpoch <= 0 || !(donateStep > 0 && donateStep < 1)) {
            throw new IllegalArgumentException("proportional share needs positive intervals and a donate step in (0, 1)");
        }
        this.weights = Map.copyOf(weights);
        this.tickNanos = tickNanos;
        this.ticksPerEpoch = ticksPerEpoch;
        this.donateStep = donateStep;
        this.slowdowns = new Slowdowns(refreshNanos, pauseNanos);
    }

    @Override
    void check(Probe probe) {
        int n = probe.size();
        weight = new double[n];
        for (int i = 0; i < n; i++) {
            Integer w = weights.get(probe.tenant(i).name());
            if (w == null) {
                throw new IllegalArgumentException("proportional share has no weight for tenant '"
                        + probe.tenant(i).name() + "'; give every governed tenant a weight");
            }
            weight[i] = w;
        }
        for (String name : weights.keySet()) {
            require(probe, name, "proportional share");
        }
        totalWeight = Arrays.stream(weight).sum();
        assigned = new double[n];
        for (int i = 0; i < n; i++) {
            assigned[i] = weight[i] / totalWeight;
        }
    }

    @Override
    void iterate(Probe probe) throws InterruptedException {
        int n = probe.size();
        slowdowns.refresh(probe);
        long epochNanos = tickNanos * ticksPerEpoch;
        long[] start = new long[n];
        long[] requests = new long[n];
        int[] depletedTick = new int[n];
        for (int i = 0; i < n; i++) {
            probe.throttle(i).resume();
            start[i] = probe.used(i);
            requests[i] = probe.tenant(i).requests();
            depletedTick[i] = -1;
        }
        long begin = probe.now();
        for (int tick = 1; tick <= ticksPerEpoch; tick++) {
            probe.sleep(tickNanos);
            for (int i = 0; i < n; i++) {
                if (depletedTick[i] < 0 && probe.used(i) - start[i] >= assigned[i] * epochNanos * 1000) {
                    probe.throttle(i).stall();
                    depletedTick[i] = tick;
                }
            }
        }
        long elapsed = Math.max(1, probe.now() - begin);
        double[] shared = new double[n];
        double[] used = new double[n];
        for (int i = 0; i < n; i++) {
            shared[i] = (probe.tenant(i).requests() - requests[i]) * 1e9 / elapsed;
            used[i] = (probe.used(i) - start[i]) / (elapsed * 1000.0);
        }
        double[] slowdown = slowdowns.estimate(shared, probe);
        double[] desired = new double[n];
        for (int i = 0; i < n; i++) {
            double fair = weight[i] / totalWeight;
            if (depletedTick[i] > 0) {
                desired[i] = Math.min(1, assigned[i] * ticksPerEpoch / depletedTick[i]);
            } else if (slowdown[i] > totalWeight / weight[i]) {
                // the donation (or others' interference) took the tenant past its guarantee: take a step back
                desired[i] = Math.min(assigned[i] * (1 + donateStep), fair);
            } else {
                desired[i] = Math.max(assigned[i] * (1 - donateStep), used[i]);
            }
        }
        assigned = divide(desired, weight);
    }

    /**
     * Weighted max-min division of the whole device: tenants that want less than their weighted part
     * of what is left get what they want; the rest split what remains by weight.
     */
    static double[] divide(double[] desired, double[] weight) {
        int n = desired.length;
        double[] share = new double[n];
        boolean[] settled = new boolean[n];
        double remaining = 1;
        boolean changed = true;
        while (changed) {
            changed = false;
            double openWeight = 0;
            for (int i = 0; i < n; i++) {
                if (!settled[i]) {
                    openWeight += weight[i];
                }
            }
            if (openWeight == 0) {
                break;
            }
            for (int i = 0; i < n; i++) {
                if (!settled[i] && desired[i] <= remaining * weight[i] / openWeight) {
                    share[i] = desired[i];
                    settled[i] = true;
                    remaining -= desired[i];
                    changed = true;
                }
            }
        }
        double openWeight = 0;
        for (int i = 0; i < n; i++) {
            if (!settled[i]) {
                openWeight += weight[i];
            }
        }
        for (int i = 0; i < n; i++) {
            if (!settled[i]) {
                share[i] = remaining * weight[i] / openWeight;
            }
        }
        return share;
    }

    @Override
    public String toString() {
        return "proportional share " + weights;
    }
}
