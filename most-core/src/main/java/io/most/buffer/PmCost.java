package io.most.buffer;

import io.most.device.EmulatedPm;

/**
 * Emulated persistent-memory access costs for the buffer manager's PM tier: each load and store of
 * the PM frames pays through the configured {@link EmulatedPm} ({@code PageStoreConfig.pmModel()}),
 * which every store and tenant configured with the same device or profile shares, so PM has a
 * bandwidth that all of them contend for, writes cost more than reads, and 64 B costs a 256 B XPLine.
 * With no model it costs nothing (real PM, or a plain file).
 */
final class PmCost {
    static final PmCost NONE = new PmCost(null);

    private final EmulatedPm pm;

    private PmCost(EmulatedPm pm) {
        this.pm = pm;
    }

    static PmCost of(EmulatedPm pm) {
        return pm == null ? NONE : new PmCost(pm);
    }

    void load(long bytes) {
        if (pm != null) {
            pm.read(bytes);
        }
    }

    void store(long bytes) {
        if (pm != null) {
            pm.write(bytes);
        }
    }
}
