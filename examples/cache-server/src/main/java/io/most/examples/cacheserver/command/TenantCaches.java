package io.most.examples.cacheserver.command;

import io.most.cache.CacheConfig;
import io.most.cache.MostCache;
import io.most.device.DeviceProfiles;
import io.most.device.EmulatedPm;
import io.most.device.PmProfiles;
import io.most.examples.cacheserver.SharingSettings;
import io.most.examples.cacheserver.TenantSettings;
import io.most.sharing.Resource;
import io.most.sharing.SharedDevices;
import io.most.sharing.SharedTenants;
import io.most.sharing.Tenant;
import io.most.sharing.Throttle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The server's tenants: for each ACL user configured as one, a {@link MostCache} of its own, opened as
 * a tenant of the server's {@link SharedDevices} (one flash file, {@value SharingSettings#DEVICE_FILE},
 * a space per tenant; one PM model), so its keys are in a namespace no other user reaches, and its PM
 * and flash use is charged to it and throttled by the sharing policy's controllers (one per device).
 * Each tenant's commands run on threads of its own ({@link #executor}), so a throttle that holds a
 * tenant's accesses holds that tenant's commands only, never an event loop that serves other users.
 * Opened before the server binds; closed after its connections.
 */
public final class TenantCaches implements AutoCloseable {
    private static final long MIB = 1 << 20;

    /**
     * One tenant: its settings, its place in the shared devices, its cache, the Redis keyspace over it,
     * and the threads its commands run on.
     */
    public record Entry(TenantSettings settings, Tenant tenant, MostCache cache, Keyspace keyspace,
                        ExecutorService executor) {
    }

    private final Map<String, Entry> byUser;
    private final SharedTenants shared;

    private TenantCaches(Map<String, Entry> byUser, SharedTenants shared) {
        this.byUser = byUser;
        this.shared = shared;
    }

    /** No tenants. */
    public static TenantCaches none() {
        return new TenantCaches(Map.of(), null);
    }

    /**
     * Opens every tenant's cache in {@code directory} as {@code sharing} says, and starts the policy's
     * controllers; on a failure closes what it opened.
     *
     * @throws io.most.errors.ConfigurationException if a tenant's sizes are refused or its space on the
     *                                              shared device has another size than configured
     */
    public static TenantCaches open(Path directory, SharingSettings sharing, double dirtyRatio, int threads) {
        if (!sharing.enabled()) {
            return none();
        }
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            Files.createDirectories(directory);
            Map<String, CacheConfig.Builder> configs = new LinkedHashMap<>();
            long capacity = 2 * MIB; // the space table's megabyte, and one of slack
            for (TenantSettings t : sharing.tenants()) {
                CacheConfig.Builder b = CacheConfig.builder().dramBytes(t.dramBytes()).pmBytes(t.pmBytes())
                        .smallItemBytes(t.ssdBytes()).largeItemBytes(t.regionBytes()).dirtyRatio(dirtyRatio);
                if (t.pmBytes() > 0) {
                    b.directory(directory.resolve("tenants").resolve(t.user()));
                }
                configs.put(t.user(), b);
                CacheConfig sizes = CacheConfig.builder().dramBytes(t.dramBytes()).smallItemBytes(t.ssdBytes())
                        .largeItemBytes(t.regionBytes()).directory(directory).build();
                capacity += roundUp(sizes.smallItemDeviceBytes()) + roundUp(sizes.largeItemDeviceBytes());
            }
            SharedTenants shared = SharedTenants.onFile(directory.resolve(SharingSettings.DEVICE_FILE), capacity,
                    EmulatedPm.shared(PmProfiles.get(sharing.pmProfile())), DeviceProfiles.get(sharing.deviceProfile()),
                    sharing.policy());
            opened.add(shared);
            Map<String, Entry> byUser = new LinkedHashMap<>();
            for (TenantSettings t : sharing.tenants()) {
                Tenant tenant = shared.tenant(t.user(), t.terms());
                MostCache cache = MostCache.open(configs.get(t.user()).tenant(tenant).build());
                opened.add(cache);
                ExecutorService executor = Executors.newFixedThreadPool(threads,
                        Thread.ofPlatform().daemon().name("most-tenant-" + t.user() + "-", 0).factory());
                opened.add(executor::shutdownNow);
                byUser.put(t.user(), new Entry(t, tenant, cache, new Keyspace(cache), executor));
            }
            return new TenantCaches(byUser, shared);
        } catch (IOException e) {
            closeAll(opened, null);
            throw new UncheckedIOException("cannot prepare the tenants' files in " + directory + ": " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            closeAll(opened, e);
            throw e;
        }
    }

    /** The keyspace of {@code user}'s own cache, or null if the user is not a tenant. */
    public Keyspace keyspace(String user) {
        Entry e = byUser.get(user);
        return e == null ? null : e.keyspace();
    }

    /** The threads {@code user}'s commands run on, or null if the user is not a tenant. */
    public Executor executor(String user) {
        Entry e = byUser.get(user);
        return e == null ? null : e.executor();
    }

    /** Whether {@code user} is a tenant. */
    public boolean isTenant(String user) {
        return byUser.containsKey(user);
    }

    /** Every tenant, in the order configured. */
    public Collection<Entry> entries() {
        return byUser.values();
    }

    /** The policy the controllers enforce ({@code none} without one). */
    public String policy() {
        return shared == null ? "none" : shared.policy();
    }

    /**
     * The {@code # Tenants} section of INFO: for each tenant its keys, its use of each shared device (in
     * milliseconds of the whole device, Nyx's cost units), its throttles, its slowdown estimate and its
     * requests with their P99; {@code only} restricts it to one tenant (what a tenant may see of others:
     * nothing), null for all.
     */
    void describe(StringBuilder out, String only) {
        out.append("sharing_policy:").append(policy()).append("\r\n");
        out.append("tenants:").append(only == null ? byUser.size() : 1).append("\r\n");
        for (Entry e : byUser.values()) {
            if (only != null && !only.equals(e.settings().user())) {
                continue;
            }
            Tenant t = e.tenant();
            out.append("tenant_").append(e.settings().user()).append(':')
                    .append("keys=").append(e.keyspace().size())
                    .append(",dram=").append(e.settings().dramBytes())
                    .append(",pm=").append(e.settings().pmBytes())
                    .append(",ssd=").append(e.settings().ssdBytes())
                    .append(",regions=").append(e.settings().regionBytes())
                    .append(",weight=").append(e.settings().weight())
                    .append(",limit=").append(format(e.settings().limit()))
                    .append(",share=").append(format(e.settings().share()))
                    .append(",pm_used_ms=").append(format(t.usedPicos(Resource.PM) / 1e9))
                    .append(",device_used_ms=").append(format(t.usedPicos(Resource.DEVICE) / 1e9))
                    .append(",pm_throttle=").append(describe(t.throttle(Resource.PM)))
                    .append(",device_throttle=").append(describe(t.throttle(Resource.DEVICE)))
                    .append(",slowdown=").append(format(t.slowdown()))
                    .append(",requests=").append(t.requests())
                    .append(",p99_us=").append(t.latency().percentileNanos(0.99) / 1000)
                    .append("\r\n");
        }
    }

    /** A throttle as INFO shows it: {@code none}, {@code stalled} or {@code share=0.2500}, with any delay. */
    private static String describe(Throttle t) {
        String s = t.isStalled() ? "stalled" : t.isCapped() ? "share=" + format(t.share()) : "none";
        return t.delayNanos() > 0 ? s + "+delay=" + t.delayNanos() + "ns" : s;
    }

    private static String format(double v) {
        return String.format(Locale.ROOT, "%.4f", v);
    }

    private static long roundUp(long bytes) {
        return (bytes + MIB - 1) / MIB * MIB;
    }

    /** Stops the tenants' threads, flushes and closes each cache, then stops the controllers and closes the file. */
    @Override
    public void close() {
        List<AutoCloseable> all = new ArrayList<>();
        if (shared != null) {
            all.add(shared); // closed last: its controllers, then the shared file
        }
        byUser.values().forEach(e -> all.add(e.cache()));
        // first the tenants' threads: the connections are closed, so they only finish what was running
        byUser.values().forEach(e -> all.add(() -> stop(e.executor())));
        RuntimeException failure = closeAll(all, null);
        if (failure != null) {
            throw failure;
        }
    }

    private static void stop(ExecutorService executor) throws InterruptedException {
        executor.shutdown();
        if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
            executor.shutdownNow();
        }
    }

    /** Closes in reverse order, keeping the first failure and suppressing the rest into it. */
    private static RuntimeException closeAll(List<AutoCloseable> opened, Throwable primary) {
        RuntimeException first = null;
        for (int i = opened.size() - 1; i >= 0; i--) {
            try {
                opened.get(i).close();
            } catch (Exception e) {
                if (primary != null) {
                    primary.addSuppressed(e);
                } else if (first == null) {
                    first = e instanceof RuntimeException r ? r : new RuntimeException(e);
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        return first;
    }

    @Override
    public String toString() {
        return "TenantCaches" + byUser.keySet() + (shared == null ? "" : " " + shared);
    }
}
