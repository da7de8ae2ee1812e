package io.most.sharing;

/** Slowdown as Nyx defines it: standalone over shared performance, 1 = unharmed. */
final class Slowdowns {
    private Slowdowns() {
    }

    /**
     * Each tenant's slowdown from its standalone and shared throughputs, reported to it; NaN for a
     * tenant that completed nothing in one of the two (idle, or not reporting requests).
     */
    static double[] of(double[] alone, double[] shared, Probe probe) {
        double[] slowdown = new double[alone.length];
        for (int i = 0; i < alone.length; i++) {
            slowdown[i] = alone[i] > 0 && shared[i] > 0 ? alone[i] / shared[i] : Double.NaN;
            if (!Double.isNaN(slowdown[i])) {
                probe.tenant(i).reportSlowdown(slowdown[i]);
            }
        }
        return slowdown;
    }
}
