package io.most.tier.policy;

import io.most.errors.ConfigurationException;

/**
 * Striping (MOST paper section 2 and 4.1, CacheLib's default storage layer): every segment gets one
 * copy at a fixed place decided by its number, and nothing ever migrates or is mirrored. With a
 * performance share {@code f}, segment {@code s} goes to the performance device iff
 * {@code floor((s+1)·f) > floor(s·f)}, which spreads the devices evenly over the address space
 * ({@code f = 0.5} alternates). The default takes {@code f} from the devices' slot counts, i.e. in
 * proportion to capacity, so both devices fill up together.
 *
 * <p>Simplification: the stripe unit is the volume's segment (2 MiB), not a configurable chunk; if
 * the chosen device is full the volume falls back to the other one.
 */
public final class StripingPolicy extends SingleCopyPolicy {
    private final double configuredShare;
    private volatile double share = 0.5;

    /** Striping in proportion to the devices' capacity. */
    public StripingPolicy() {
        this.configuredShare = Double.NaN;
    }

    /** Striping with {@code performanceShare} of the segments on the performance device (0.5: alternate). */
    public StripingPolicy(double performanceShare) {
        if (!(performanceShare >= 0 && performanceShare <= 1)) {
            throw new ConfigurationException("striping share must be within [0, 1], got " + performanceShare);
        }
        this.configuredShare = performanceShare;
        this.share = performanceShare;
    }

    @Override
    public String name() {
        return "striping";
    }

    @Override
    public void attach(PolicyContext context) {
        if (Double.isNaN(configuredShare)) {
            double p = context.slots(Tier.PERFORMANCE);
            double c = context.slots(Tier.CAPACITY);
            share = p + c == 0 ? 0.5 : p / (p + c);
        }
    }

    /** The share of segments placed on the performance device. */
    public double performanceShare() {
        return share;
    }

    @Override
    public Tier placeNewSegment(int segment) {
        double f = share;
        return Math.floor((segment + 1.0) * f) > Math.floor(segment * f) ? Tier.PERFORMANCE : Tier.CAPACITY;
    }

    @Override
    public void optimize(PolicyContext context) {
        // static placement
    }
}
