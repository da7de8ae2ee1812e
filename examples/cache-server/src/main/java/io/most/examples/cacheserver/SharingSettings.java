package io.most.examples.cacheserver;

import io.most.device.DeviceProfiles;
import io.most.device.PmProfiles;
import io.most.sharing.SharedTenants;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Tenants of one server: ACL users each served from a cache of its own, all sharing one flash device
 * ({@value #DEVICE_FILE} in the data directory, a space per tenant) and one PM device (modelled by
 * {@code pmProfile}), each accounted and throttled separately ({@link io.most.sharing}), with one of
 * NyxCache's policies enforced on both devices.
 *
 * @param tenants       the tenants, by ACL user; empty for a server without tenants
 * @param policy        {@code none} (each tenant's fixed {@code share} cap, if any), {@code limit} (each
 *                      tenant's {@code limit}), {@code proportional} (by {@code weight}), {@code fair}
 *                      (equal slowdowns) or {@code qos:USER:P99} (e.g. {@code qos:shop:2ms}: USER's P99
 *                      target, the others best-effort); see {@link SharedTenants}
 * @param pmProfile     the PM model tenants' PM accesses pay through and are charged by ({@code none}:
 *                      PM is free and not accounted)
 * @param deviceProfile the profile whose {@code 1 / MaxIOPS} costs the flash accesses are charged by
 */
public record SharingSettings(List<TenantSettings> tenants, String policy, String pmProfile, String deviceProfile) {
    /** No tenants: every user on the one cache, as before tenants existed. */
    public static final SharingSettings NONE = new SharingSettings(List.of(), "none", "none", "nvme-pcie4");
    /** The shared flash device's file in the data directory. */
    public static final String DEVICE_FILE = "tenants.most";

    public SharingSettings {
        tenants = List.copyOf(tenants);
        Objects.requireNonNull(policy, "policy");
        Set<String> users = new HashSet<>();
        for (TenantSettings t : tenants) {
            if (!users.add(t.user())) {
                throw new IllegalArgumentException("--tenant '" + t.user() + "' is given twice: one cache per user");
            }
        }
        if (!PmProfiles.names().contains(pmProfile)) {
            throw new IllegalArgumentException("--pm-profile '" + pmProfile + "' is unknown; valid: " + PmProfiles.names());
        }
        if (!DeviceProfiles.names().contains(deviceProfile)) {
            throw new IllegalArgumentException("--device-profile '" + deviceProfile + "' is unknown; valid: "
                    + DeviceProfiles.names());
        }
        policy = SharedTenants.checkPolicy(policy);
        if (!policy.equals("none") && tenants.isEmpty()) {
            throw new IllegalArgumentException("--sharing-policy " + policy + " needs tenants: add --tenant USER:...");
        }
        if (policy.equals("limit") && tenants.stream().noneMatch(t -> t.limit() > 0)) {
            throw new IllegalArgumentException("--sharing-policy limit: no tenant has a limit; give one with"
                    + " --tenant USER:limit=0.3");
        }
        String lc = SharedTenants.qosTenant(policy);
        if (lc != null && !users.contains(lc)) {
            throw new IllegalArgumentException("--sharing-policy '" + policy + "': write qos:USER:P99 with USER one"
                + " of the tenants " + users + " and P99 such as 2ms or 500us");
        }
        if (!policy.equals("none") && tenants.stream().anyMatch(t -> t.share() > 0)) {
            throw new IllegalArgumentException("--tenant ...share=... is a fixed cap for a server without a sharing"
                    + " policy; under --sharing-policy " + policy + " the policy sets the caps: drop share or the policy");
        }
    }

    /** Whether the server has tenants. */
    public boolean enabled() {
        return !tenants.isEmpty();
    }

    /** These settings with {@code tenant} added. */
    public SharingSettings withTenant(TenantSettings tenant) {
        List<TenantSettings> all = new java.util.ArrayList<>(tenants);
        all.add(tenant);
        return new SharingSettings(all, policy, pmProfile, deviceProfile);
    }

    /** These settings with another policy. */
    public SharingSettings withPolicy(String sharingPolicy) {
        return new SharingSettings(tenants, sharingPolicy, pmProfile, deviceProfile);
    }

    /** These settings with other device models. */
    public SharingSettings withProfiles(String pm, String device) {
        return new SharingSettings(tenants, policy, pm, device);
    }

}
