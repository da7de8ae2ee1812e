package io.most.sharing;

/**
 * Nyx's slowdown estimation over a policy's rounds: standalone throughputs measured by
 * {@link Probe#aloneThroughput} (a short pause of the others per tenant), refreshed once they are older
 * than the refresh interval; slowdown is standalone over shared throughput, 1 = unharmed.
 */
final class Slowdowns {
    private final long refreshNanos;
    private final long pauseNanos;
    private double[] alone;
    private long aloneAt;

    Slowdowns(long refreshNanos, long pauseNanos) {
        if (refreshNanos <= 0 || pauseNanos <= 0) {
            throw new IllegalArgumentException("slowdown estimation needs a positive refresh interval and pause, got "
                    + refreshNanos + " and " + pauseNanos + " ns");
        }
        this.refreshNanos = refreshNanos;
        this.pauseNanos = pauseNanos;
    }

    /** Measures every tenant's standalone throughput again if the last measurement is stale. */
    void refresh(Probe probe) throws InterruptedException {
        if (alone != null && alone.length == probe.size() && probe.now() - aloneAt < refreshNanos) {
            return;
        }
        double[] measured = new double[probe.size()];
        for (int i = 0; i < measured.length; i++) {
            measured[i] = probe.aloneThroughput(i, pauseNanos);
        }
        alone = measured;
        aloneAt = probe.now();
    }

    /**
     * Each tenant's slowdown given its {@code shared} throughput, reported to it; NaN for a tenant that
     * completed nothing alone or shared (idle, or not reporting requests). Call {@link #refresh} first.
     */
    double[] estimate(double[] shared, Probe probe) {
        double[] slowdown = new double[shared.length];
        for (int i = 0; i < shared.length; i++) {
            slowdown[i] = alone[i] > 0 && shared[i] > 0 ? alone[i] / shared[i] : Double.NaN;
            if (!Double.isNaN(slowdown[i])) {
                probe.tenant(i).reportSlowdown(slowdown[i]);
            }
        }
        return slowdown;
    }
}
