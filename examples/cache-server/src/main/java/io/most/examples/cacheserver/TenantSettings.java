package io.most.examples.cacheserver;

import io.most.Sizes;
import io.most.sharing.SharedTenants;
import java.util.Locale;
import java.util.Objects;

/**
 * One ACL user served as a tenant: its own cache with its own DRAM, PM and flash, on the server's
 * shared devices ({@link SharingSettings}), and what the sharing policy gives it.
 *
 * @param user        the ACL user whose keys live in this tenant's cache
 * @param dramBytes   the tenant's DRAM (its bucket pages' frames and hot small items)
 * @param pmBytes     the tenant's PM frames (a mapped file in {@code DIR/tenants/USER}), 0 for none
 * @param ssdBytes    the tenant's bucket pages on the shared flash device
 * @param regionBytes the tenant's regions of large values on the shared flash device, 0 for none
 * @param weight      its weight under the proportional policy (default 1)
 * @param limit       its resource limit under the limit policy, a fraction (0, 1] of each shared device,
 *                    0 for none
 * @param share       a fixed cap on its use of each shared device under no policy, a fraction (0, 1], 0
 *                    for none
 */
public record TenantSettings(String user, long dramBytes, long pmBytes, long ssdBytes, long regionBytes, int weight,
                             double limit, double share) {
    /** The sizes a tenant gets for what its {@code --tenant} option leaves out. */
    static final long DEFAULT_DRAM = 16L << 20;
    static final long DEFAULT_SSD = 64L << 20;
    static final long DEFAULT_REGIONS = 64L << 20;

    public TenantSettings {
        Objects.requireNonNull(user, "user");
        if (user.isBlank() || user.contains(":") || user.contains("/")) {
            throw new IllegalArgumentException("tenant user '" + user + "' must be an ACL user's name (no ':' or '/')");
        }
        try {
            new SharedTenants.Terms(weight, limit, share); // checks them (fields are not assigned yet here)
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("tenant '" + user + "': " + e.getMessage(), e);
        }
    }

    /** What the sharing policy gives this tenant. */
    public SharedTenants.Terms terms() {
        return new SharedTenants.Terms(weight, limit, share);
    }

    /**
     * Parses {@code USER:key=value,...}, the value of a {@code --tenant} option: keys {@code dram},
     * {@code pm}, {@code ssd}, {@code regions} (sizes as {@code 64m}), {@code weight} (an integer),
     * {@code limit} and {@code share} (fractions); every key is optional.
     *
     * @throws IllegalArgumentException naming the option and the part that is wrong
     */
    public static TenantSettings parse(String text) {
        int colon = text.indexOf(':');
        String user = colon < 0 ? text : text.substring(0, colon);
        long dram = DEFAULT_DRAM;
        long pm = 0;
        long ssd = DEFAULT_SSD;
        long regions = DEFAULT_REGIONS;
        int weight = 1;
        double limit = 0;
        double share = 0;
        if (colon >= 0 && colon < text.length() - 1) {
            for (String part : text.substring(colon + 1).split(",")) {
                int eq = part.indexOf('=');
                String key = eq < 0 ? part : part.substring(0, eq).trim().toLowerCase(Locale.ROOT);
                String value = eq < 0 ? "" : part.substring(eq + 1).trim();
                try {
                    switch (key) {
                        case "dram" -> dram = Sizes.parse(value);
                        case "pm" -> pm = Sizes.parse(value);
                        case "ssd" -> ssd = Sizes.parse(value);
                        case "regions" -> regions = Sizes.parse(value);
                        case "weight" -> weight = Integer.parseInt(value);
                        case "limit" -> limit = Double.parseDouble(value);
                        case "share" -> share = Double.parseDouble(value);
                        default -> throw new IllegalArgumentException("unknown key '" + key + "'");
                    }
                } catch (RuntimeException e) {
                    throw new IllegalArgumentException("--tenant '" + text + "': " + e.getMessage() + " in '" + part
                            + "'; write USER:dram=16m,pm=0,ssd=64m,regions=64m,weight=1,limit=0.5,share=0.5 (every key"
                            + " optional)");
                }
            }
        }
        return new TenantSettings(user, dram, pm, ssd, regions, weight, limit, share);
    }

    @Override
    public String toString() {
        return user + ":dram=" + Sizes.format(dramBytes) + ",pm=" + Sizes.format(pmBytes) + ",ssd="
                + Sizes.format(ssdBytes) + ",regions=" + Sizes.format(regionBytes) + ",weight=" + weight
                + (limit > 0 ? ",limit=" + limit : "") + (share > 0 ? ",share=" + share : "");
    }
}
