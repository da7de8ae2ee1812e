package io.most.tier.policy;

/** The two devices of a {@link io.most.tier.TieredVolume}: the small fast one and the large slow one. */
public enum Tier {
    /** The faster, smaller device (e.g. Optane SSD); it also holds the volume's metadata. */
    PERFORMANCE,
    /** The slower, larger device (e.g. NVMe or SATA flash). */
    CAPACITY;

    /** The other device. */
    public Tier other() {
        return this == PERFORMANCE ? CAPACITY : PERFORMANCE;
    }
}
