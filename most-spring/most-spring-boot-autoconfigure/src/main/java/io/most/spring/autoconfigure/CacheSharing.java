package io.most.spring.autoconfigure;

import static io.most.spring.autoconfigure.PropertyAttribution.attribute;
import static io.most.spring.autoconfigure.PropertyAttribution.property;

import io.most.device.DeviceProfiles;
import io.most.device.EmulatedPm;
import io.most.device.PmProfiles;
import io.most.sharing.SharedTenants;
import io.most.sharing.Tenant;
import java.nio.file.Path;

/**
 * {@code most.cache.sharing.*}: the Spring caches as tenants of one set of shared devices, a flash
 * file ({@value #DEVICE_FILE} in the cache directory) with a space per cache and a PM model, under one
 * sharing policy; each cache's terms from {@code most.cache.caches.NAME.weight|limit|share}. A bad
 * value is a {@link MostPropertyException} naming its property.
 */
final class CacheSharing implements AutoCloseable {
    /** The shared flash file in the cache directory. */
    static final String DEVICE_FILE = "tenants.most";
    private static final String PREFIX = "most.cache.sharing.";

    private final MostProperties.Cache properties;
    private final SharedTenants tenants;

    private CacheSharing(MostProperties.Cache properties, SharedTenants tenants) {
        this.properties = properties;
        this.tenants = tenants;
    }

    /** The sharing {@code cache} configures in {@code directory}, or null when it is not enabled. */
    static CacheSharing open(MostProperties.Cache cache, Path directory) {
        MostProperties.Sharing s = cache.getSharing();
        if (!s.isEnabled()) {
            return null;
        }
        if (TieredVolumeFactory.configured(cache.getVolume())) {
            throw new MostPropertyException("most.cache.sharing.enabled and most.cache.volume.* both place the caches'"
                    + " flash: use one of them", null, java.util.List.of(property(PREFIX + "enabled", true)));
        }
        String policy = attribute(() -> SharedTenants.checkPolicy(s.getPolicy()), property(PREFIX + "policy", s.getPolicy()));
        EmulatedPm pm = attribute(() -> EmulatedPm.shared(PmProfiles.get(known(s.getPmProfile(), PmProfiles.names(), "PM"))),
                property(PREFIX + "pm-profile", s.getPmProfile()));
        io.most.device.DeviceProfile profile = attribute(() -> DeviceProfiles.get(known(s.getDeviceProfile(),
                DeviceProfiles.names(), "device")), property(PREFIX + "device-profile", s.getDeviceProfile()));
        return new CacheSharing(cache, attribute(() -> SharedTenants.onFile(directory.resolve(DEVICE_FILE),
                s.getDeviceSize().toBytes(), pm, profile, policy),
                property(PREFIX + "device-size", s.getDeviceSize()), property("most.cache.directory", directory)));
    }

    /** The tenant of cache {@code name} with its terms. */
    Tenant tenant(String name) {
        MostProperties.CacheOverride o = properties.getCaches().get(name);
        int weight = o == null || o.getWeight() == null ? 1 : o.getWeight();
        double limit = o == null || o.getLimit() == null ? 0 : o.getLimit();
        double share = o == null || o.getShare() == null ? 0 : o.getShare();
        String prefix = "most.cache.caches." + name + ".";
        return attribute(() -> tenants.tenant(name, new SharedTenants.Terms(weight, limit, share)),
                property(prefix + "weight", weight), property(prefix + "limit", limit), property(prefix + "share", share));
    }

    /** The tenants and their policy. */
    SharedTenants tenants() {
        return tenants;
    }

    private static String known(String name, java.util.List<String> names, String what) {
        if (!names.contains(name)) {
            throw new IllegalArgumentException("unknown " + what + " profile '" + name + "'; valid: " + names);
        }
        return name;
    }

    /** Stops the policy's controllers, then closes the shared device (after the caches closed). */
    @Override
    public void close() {
        tenants.close();
    }
}
