package io.most.cache.jcache;

import io.most.device.DeviceProfiles;
import io.most.device.EmulatedPm;
import io.most.device.PmProfiles;
import io.most.sharing.SharedTenants;
import io.most.sharing.Tenant;
import java.nio.file.Path;
import java.util.Properties;
import javax.cache.CacheException;

/**
 * The caches of one {@link MostCacheManager} as tenants of one set of shared devices: a flash file
 * ({@value #DEVICE_FILE} in the manager's directory) with a space per cache, and a PM model, under the
 * policy of {@value MostCacheManager#SHARING_POLICY}, each cache's terms from
 * {@code most.cache.caches.NAME.weight|limit|share}. A cache created again under the same name is the
 * same tenant, in the same space. Thread-safe.
 */
final class CacheSharing implements AutoCloseable {
    /** The shared flash file in the manager's directory. */
    static final String DEVICE_FILE = "tenants.most";

    private final Properties properties;
    private final SharedTenants tenants;

    private CacheSharing(Properties properties, SharedTenants tenants) {
        this.properties = properties;
        this.tenants = tenants;
    }

    /**
     * The sharing {@code properties} configure in {@code directory}, or null when
     * {@value MostCacheManager#SHARING_POLICY} is not set.
     *
     * @throws CacheException naming the property that is wrong
     */
    static CacheSharing open(Properties properties, Path directory) {
        String policy = properties.getProperty(MostCacheManager.SHARING_POLICY);
        if (policy == null) {
            return null;
        }
        String pmProfile = properties.getProperty(MostCacheManager.SHARING_PM_PROFILE, "none").trim();
        String deviceProfile = properties.getProperty(MostCacheManager.SHARING_DEVICE_PROFILE, "nvme-pcie4").trim();
        try {
            SharedTenants.checkPolicy(policy);
        } catch (IllegalArgumentException e) {
            throw new CacheException("property " + MostCacheManager.SHARING_POLICY + ": " + e.getMessage(), e);
        }
        if (!PmProfiles.names().contains(pmProfile)) {
            throw new CacheException("property " + MostCacheManager.SHARING_PM_PROFILE + " = '" + pmProfile
                    + "' is unknown; valid: " + PmProfiles.names());
        }
        if (!DeviceProfiles.names().contains(deviceProfile)) {
            throw new CacheException("property " + MostCacheManager.SHARING_DEVICE_PROFILE + " = '" + deviceProfile
                    + "' is unknown; valid: " + DeviceProfiles.names());
        }
        long bytes = MostCacheManager.number(properties, MostCacheManager.SHARING_DEVICE_BYTES, 256L << 20);
        Path file = directory.resolve(DEVICE_FILE);
        try {
            return new CacheSharing(properties, SharedTenants.onFile(file, bytes,
                    EmulatedPm.shared(PmProfiles.get(pmProfile)), DeviceProfiles.get(deviceProfile), policy));
        } catch (RuntimeException e) {
            throw new CacheException("cannot open the caches' shared device " + file + " of " + bytes + " bytes ("
                    + MostCacheManager.SHARING_DEVICE_BYTES + "): " + e.getMessage(), e);
        }
    }

    /** The tenant of cache {@code name}, with its terms from the properties. */
    Tenant tenant(String name) {
        String prefix = "most.cache.caches." + name + ".";
        int weight = (int) MostCacheManager.number(properties, prefix + "weight", 1);
        double limit = fraction(prefix + "limit");
        double share = fraction(prefix + "share");
        try {
            return tenants.tenant(name, new SharedTenants.Terms(weight, limit, share));
        } catch (IllegalArgumentException e) {
            throw new CacheException("cache " + name + " as a tenant (" + prefix + "weight|limit|share, "
                    + MostCacheManager.SHARING_POLICY + "): " + e.getMessage(), e);
        }
    }

    /** The tenants and their policy. */
    SharedTenants tenants() {
        return tenants;
    }

    private double fraction(String property) {
        String v = properties.getProperty(property);
        if (v == null) {
            return 0;
        }
        try {
            return Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            throw new CacheException("property " + property + " = '" + v + "' is not a fraction such as 0.25");
        }
    }

    /** Stops the policy's controllers, then closes the shared device (after the caches closed). */
    @Override
    public void close() {
        tenants.close();
    }
}
