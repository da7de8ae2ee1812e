package io.most.buffer;

import io.most.device.EmulatedPm;
import io.most.device.PmAccount;
import io.most.sharing.Tenant;

/**
 * Emulated persistent-memory access costs for the buffer manager's PM tier: each load and store of
 * the PM frames pays through the configured {@link EmulatedPm} ({@code PageStoreConfig.pmModel()}),
 * which every store and tenant configured with the same device or profile shares, so PM has a
 * bandwidth that all of them contend for, writes cost more than reads, and 64 B costs a 256 B XPLine.
 * With no model it costs nothing (real PM, or a plain file). A store opened as a tenant pays through
 * the tenant's {@link PmAccount} instead: the same shared device, behind the tenant's throttle and
 * charged to it, which is all the buffer manager knows of tenants.
 */
final class PmCost {
    static final PmCost NONE = new PmCost(null, null);

    private final EmulatedPm pm;
    private final PmAccount account;

    private PmCost(EmulatedPm pm, PmAccount account) {
        this.pm = pm;
        this.account = account;
    }

    static PmCost of(EmulatedPm pm) {
        return pm == null ? NONE : new PmCost(pm, null);
    }

    /** The cost of a store's PM: through its tenant's account when it has one and a PM model. */
    static PmCost of(EmulatedPm pm, Tenant tenant) {
        return pm == null ? NONE : tenant == null ? of(pm) : new PmCost(null, tenant.pm());
    }

    void load(long bytes) {
        if (account != null) {
            account.read(bytes);
        } else if (pm != null) {
            pm.read(bytes);
        }
    }

    void store(long bytes) {
        if (account != null) {
            account.write(bytes);
        } else if (pm != null) {
            pm.write(bytes);
        }
    }
}
