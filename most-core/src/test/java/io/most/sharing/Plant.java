package io.most.sharing;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.DoubleUnaryOperator;

/**
 * A deterministic simulated device with tenants of known demand: time passes only in {@link #sleep},
 * in 100 us steps, and each step every tenant uses the share of the device its demand, its throttle,
 * the others' interference and the device's capacity give it. The controller and policies under test
 * run on this clock exactly as on the real one.
 *
 * <p>Per step, tenant {@code i} (demand {@code d_i}, the share it would use alone) gets
 * {@code r_i = min(cap_i, d_i / (1 + sum_j M[i][j] r_j))}, a closed-loop tenant slowed by the others'
 * interference (iterated to a fixed point), then all scaled down together if they exceed the device; a
 * stalled tenant gets nothing. Its throughput is {@code r_i / cost_i} and its latency
 * {@code base_i * (1 + sum_j M[i][j] r_j)}.
 */
final class Plant implements SharingClock {
    static final long STEP_NANOS = 100_000;
    private final List<SimTenant> tenants = new ArrayList<>();
    private double[][] interference = new double[0][0];
    private long now;

    final class SimTenant implements Regulated {
        private final String name;
        private final DoubleUnaryOperator demand;
        private final double costPicosPerRequest;
        private final long baseLatencyNanos;
        private final Throttle throttle;
        private double usedPicos;
        private double requests;
        private final TreeMap<Long, Double> window = new TreeMap<>();
        private double slowdown = Double.NaN;

        SimTenant(String name, DoubleUnaryOperator demand, double costPicosPerRequest, long baseLatencyNanos) {
            this.name = name;
            this.demand = demand;
            this.costPicosPerRequest = costPicosPerRequest;
            this.baseLatencyNanos = baseLatencyNanos;
            this.throttle = new Throttle(name);
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public long usedPicos(Resource resource) {
            return (long) usedPicos;
        }

        @Override
        public Throttle throttle(Resource resource) {
            return throttle;
        }

        @Override
        public long requests() {
            return (long) requests;
        }

        @Override
        public long windowP99Nanos() {
            double total = window.values().stream().mapToDouble(Double::doubleValue).sum();
            double seen = 0;
            for (var e : window.entrySet()) {
                seen += e.getValue();
                if (seen >= 0.99 * total) {
                    return e.getKey();
                }
            }
            return 0;
        }

        @Override
        public void resetWindow() {
            window.clear();
        }

        @Override
        public void reportSlowdown(double value) {
            slowdown = value;
        }

        double slowdown() {
            return slowdown;
        }

        double usedPicos() {
            return usedPicos;
        }

        double exactRequests() {
            return requests;
        }

        /** Share of the device this tenant uses alone with no throttle, now. */
        double aloneShare() {
            return Math.min(1, Math.max(0, demand.applyAsDouble(now / 1e9)));
        }

        /** Requests per second this tenant completes alone with no throttle, now. */
        double aloneThroughput() {
            return aloneShare() * 1e12 / costPicosPerRequest;
        }
    }

    SimTenant tenant(String name, DoubleUnaryOperator demand, double costPicosPerRequest, long baseLatencyNanos) {
        SimTenant t = new SimTenant(name, demand, costPicosPerRequest, baseLatencyNanos);
        tenants.add(t);
        double[][] grown = new double[tenants.size()][tenants.size()];
        for (int i = 0; i < interference.length; i++) {
            System.arraycopy(interference[i], 0, grown[i], 0, interference.length);
        }
        interference = grown;
        return t;
    }

    /** How much each unit of {@code by}'s share slows {@code victim}. */
    void interference(SimTenant victim, SimTenant by, double factor) {
        interference[tenants.indexOf(victim)][tenants.indexOf(by)] = factor;
    }

    List<SimTenant> tenants() {
        return tenants;
    }

    /** The share each tenant gets now. */
    double[] rates() {
        int n = tenants.size();
        double[] d = new double[n];
        double[] cap = new double[n];
        for (int i = 0; i < n; i++) {
            SimTenant t = tenants.get(i);
            d[i] = Math.min(1, Math.max(0, t.demand.applyAsDouble(now / 1e9)));
            cap[i] = t.throttle.isStalled() ? 0 : t.throttle.share();
        }
        double[] r = new double[n];
        for (int i = 0; i < n; i++) {
            r[i] = Math.min(cap[i], d[i]);
        }
        for (int round = 0; round < 50; round++) {
            double[] next = new double[n];
            for (int i = 0; i < n; i++) {
                next[i] = Math.min(cap[i], d[i] / (1 + slowing(i, r)));
            }
            r = next;
        }
        double total = 0;
        for (double x : r) {
            total += x;
        }
        if (total > 1) {
            for (int i = 0; i < n; i++) {
                r[i] /= total;
            }
        }
        return r;
    }

    private double slowing(int i, double[] r) {
        double s = 0;
        for (int j = 0; j < r.length; j++) {
            if (j != i) {
                s += interference[i][j] * r[j];
            }
        }
        return s;
    }

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public void sleep(long nanos) {
        long end = now + nanos;
        while (now < end) {
            long dt = Math.min(STEP_NANOS, end - now);
            double[] r = rates();
            for (int i = 0; i < r.length; i++) {
                SimTenant t = tenants.get(i);
                double picos = r[i] * dt * 1000;
                double served = picos / t.costPicosPerRequest;
                t.usedPicos += picos;
                t.requests += served;
                if (served > 0) {
                    long latency = Math.round(t.baseLatencyNanos * (1 + slowing(i, r)));
                    t.window.merge(latency, served, Double::sum);
                }
            }
            now += dt;
        }
    }
}
