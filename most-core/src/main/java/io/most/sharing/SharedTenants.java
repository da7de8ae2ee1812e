package io.most.sharing;

import io.most.device.BlockDevice;
import io.most.device.DeviceProfile;
import io.most.device.DirectFileDevice;
import io.most.device.EmulatedPm;
import io.most.errors.ConfigurationException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Named tenants of one {@link SharedDevices} set under one policy, for components whose tenants come
 * and go by name (the caches of a JCache {@code CacheManager} or of Spring, the users of the cache
 * server): a name joins the set once and gets the same {@link Tenant} again when its cache is reopened,
 * and the policy's controllers are restarted over every tenant whenever one joins, so a controller
 * always governs them all. The policy is given as text, as configuration states it:
 * <ul>
 *   <li>{@code none}: accounting only, and each tenant's fixed {@link Terms#share() share} cap if any;</li>
 *   <li>{@code limit}: each tenant's {@link Terms#limit() limit} ({@link SharingPolicy#resourceLimit});</li>
 *   <li>{@code proportional}: by {@link Terms#weight() weight} ({@link SharingPolicy#proportional});</li>
 *   <li>{@code fair}: equal slowdowns ({@link SharingPolicy#fairSlowdown});</li>
 *   <li>{@code qos:NAME:P99} such as {@code qos:orders:2ms}: NAME's P99 target, the others best effort
 *       ({@link SharingPolicy#qos}); it runs on PM when PM is modelled, else on the block device, since
 *       two latency controllers would reset each other's windows.</li>
 * </ul>
 * Limit, proportional and fair run on every shared resource (PM only when its model is not free).
 * Thread-safe.
 */
public final class SharedTenants implements AutoCloseable {
    /**
     * What one tenant is given: its weight under {@code proportional}, its resource limit under
     * {@code limit} (a fraction of each device, 0 for none), and a fixed share cap under {@code none}
     * (a fraction of each device, 0 for none).
     */
    public record Terms(int weight, double limit, double share) {
        /** Weight 1, no limit, no cap. */
        public static final Terms DEFAULT = new Terms(1, 0, 0);

        public Terms {
            if (weight < 1) {
                throw new IllegalArgumentException("a tenant's weight must be at least 1, got " + weight);
            }
            if (!(limit >= 0 && limit <= 1) || !(share >= 0 && share <= 1)) {
                throw new IllegalArgumentException("a tenant's limit and share are fractions in (0, 1] of each shared"
                        + " device, or 0 for none; got limit " + limit + ", share " + share);
            }
        }
    }

    private final SharedDevices devices;
    private final String policy;
    private final Map<String, Terms> terms = new LinkedHashMap<>();
    private final Map<String, Tenant> tenants = new LinkedHashMap<>();
    private final List<SharingController> controllers = new ArrayList<>();
    /** The shared device when these tenants opened it ({@link #onFile}), closed with them; else null. */
    private final BlockDevice owned;
    private boolean closed;

    /**
     * Tenants of {@code devices} under {@code policy} (see the class comment).
     *
     * @throws IllegalArgumentException if the policy is not one of those
     */
    public SharedTenants(SharedDevices devices, String policy) {
        this(devices, policy, null);
    }

    private SharedTenants(SharedDevices devices, String policy, BlockDevice owned) {
        this.devices = Objects.requireNonNull(devices, "devices");
        this.policy = checkPolicy(policy);
        this.owned = owned;
    }

    /**
     * Tenants sharing {@code pm} and the flash file {@code file} of {@code bytes} (created with its
     * directory if missing, grown if shorter; an existing longer file keeps its length, so spaces made
     * when it was larger stay reachable), its accesses charged by {@code profile}, under {@code policy}.
     * {@link #close()} then closes the file too: how a cache manager or server shares one file
     * between its caches.
     *
     * @throws IllegalArgumentException if the policy is not one of those of the class comment
     * @throws ConfigurationException   if the file cannot be created or opened
     */
    public static SharedTenants onFile(Path file, long bytes, EmulatedPm pm, DeviceProfile profile, String policy) {
        String checked = checkPolicy(policy);
        long capacity;
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            long existing = Files.exists(file) ? Files.size(file) / SpaceTable.ALIGNMENT * SpaceTable.ALIGNMENT : 0;
            capacity = Math.max(bytes, existing);
        } catch (IOException e) {
            throw new ConfigurationException("cannot prepare the shared device file " + file + ": " + e.getMessage()
                    + "; choose a writable directory", e);
        }
        BlockDevice device = DirectFileDevice.open(file, capacity, DirectFileDevice.Options.defaults().withGrowth(true));
        return new SharedTenants(new SharedDevices(pm, device, profile), checked, device);
    }

    /**
     * Checks a policy's text and returns it in lower case ({@code qos:}'s tenant name kept as written).
     *
     * @throws IllegalArgumentException naming the valid policies, or saying what a {@code qos} policy lacks
     */
    public static String checkPolicy(String policy) {
        Objects.requireNonNull(policy, "policy");
        String kind = policy.trim().toLowerCase(Locale.ROOT);
        if (kind.startsWith("qos:")) {
            String[] parts = policy.trim().split(":");
            if (parts.length != 3 || parts[1].isBlank()) {
                throw new IllegalArgumentException("sharing policy '" + policy + "': write qos:NAME:P99 with NAME the"
                        + " latency-critical tenant and P99 such as 2ms or 500us");
            }
            p99(policy);
            return "qos:" + parts[1] + ":" + parts[2].toLowerCase(Locale.ROOT);
        }
        if (!List.of("none", "limit", "proportional", "fair").contains(kind)) {
            throw new IllegalArgumentException("sharing policy '" + policy + "' is unknown; valid: none, limit,"
                    + " proportional, fair, qos:NAME:P99");
        }
        return kind;
    }

    /** The latency-critical tenant of a {@code qos:NAME:P99} policy, null for another policy. */
    public static String qosTenant(String policy) {
        String p = checkPolicy(policy);
        return p.startsWith("qos:") ? p.split(":")[1] : null;
    }

    /** The policy in force, as {@link #checkPolicy} writes it. */
    public String policy() {
        return policy;
    }

    /** The shared devices. */
    public SharedDevices devices() {
        return devices;
    }

    /**
     * The tenant {@code name} with {@code tenantTerms}: joins it at the first call and returns the same
     * tenant afterwards (with the new terms); restarts the policy's controllers over every tenant.
     *
     * @throws IllegalStateException if closed
     */
    public synchronized Tenant tenant(String name, Terms tenantTerms) {
        if (closed) {
            throw new IllegalStateException("the shared tenants are closed");
        }
        Objects.requireNonNull(tenantTerms, "terms");
        Tenant tenant = tenants.get(name);
        if (tenant == null) {
            tenant = devices.join(name);
            tenants.put(name, tenant);
        }
        terms.put(name, tenantTerms);
        restart();
        return tenant;
    }

    /** The tenants joined so far, by name. */
    public synchronized Map<String, Tenant> tenants() {
        return Map.copyOf(tenants);
    }

    /** Controllers running now: one per governed resource once the policy has what it needs. */
    synchronized int runningControllers() {
        return (int) controllers.stream().filter(SharingController::isRunning).count();
    }

    /** Stops the controllers over the old set of tenants and starts them over the current one. */
    private void restart() {
        stopControllers();
        List<Resource> resources = new ArrayList<>();
        if (!devices.pm().profile().isFree()) {
            resources.add(Resource.PM);
        }
        if (devices.hasDevice()) {
            resources.add(Resource.DEVICE);
        }
        String kind = policy.startsWith("qos:") ? "qos" : policy;
        if (kind.equals("none")) {
            terms.forEach((name, t) -> {
                for (Resource r : resources) {
                    tenants.get(name).throttle(r).setShare(t.share() > 0 ? t.share() : 1);
                }
            });
            return;
        }
        if (kind.equals("qos")) {
            String lc = policy.split(":")[1];
            if (tenants.containsKey(lc) && !resources.isEmpty()) { // until the latency-critical tenant joins, no target
                controllers.add(SharingController.start(devices, resources.getFirst(), SharingPolicy.qos(lc, p99(policy))));
            }
            return;
        }
        Map<String, Double> limits = new LinkedHashMap<>();
        Map<String, Integer> weights = new LinkedHashMap<>();
        terms.forEach((name, t) -> {
            weights.put(name, t.weight());
            if (t.limit() > 0) {
                limits.put(name, t.limit());
            }
        });
        if (kind.equals("limit") && limits.isEmpty()) {
            return; // nobody is limited yet
        }
        for (Resource r : resources) {
            SharingPolicy p = switch (kind) {
                case "limit" -> SharingPolicy.resourceLimit(limits);
                case "proportional" -> SharingPolicy.proportional(weights);
                default -> SharingPolicy.fairSlowdown();
            };
            controllers.add(SharingController.start(devices, r, p));
        }
    }

    private void stopControllers() {
        for (SharingController c : controllers) {
            c.close();
        }
        controllers.clear();
    }

    private static Duration p99(String policy) {
        String text = policy.substring(policy.lastIndexOf(':') + 1).trim().toLowerCase(Locale.ROOT);
        try {
            long n;
            Duration d;
            if (text.endsWith("us")) {
                n = Long.parseLong(text.substring(0, text.length() - 2));
                d = Duration.ofNanos(Math.multiplyExact(n, 1000));
            } else if (text.endsWith("ms")) {
                n = Long.parseLong(text.substring(0, text.length() - 2));
                d = Duration.ofMillis(n);
            } else {
                throw new NumberFormatException();
            }
            if (n <= 0) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("sharing policy '" + policy + "': the P99 target '" + text
                    + "' must be a positive whole number of ms or us, such as 2ms");
        }
    }

    /**
     * Stops the controllers, which removes every throttle they set, then closes the shared file if
     * {@link #onFile} opened it (after the components on it have closed); devices given stay open.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            stopControllers();
        } finally {
            if (owned != null) {
                owned.close();
            }
        }
    }

    @Override
    public String toString() {
        return "SharedTenants[" + policy + ", " + tenants.keySet() + "]";
    }
}
