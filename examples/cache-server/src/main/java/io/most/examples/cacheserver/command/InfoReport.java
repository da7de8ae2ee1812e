package io.most.examples.cacheserver.command;

import io.most.PageStoreStats;
import io.most.cache.CacheStats;
import io.most.examples.cacheserver.ServerSettings;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;

/**
 * The text of {@code INFO [section ...]} in Redis's format ({@code # Section} headers, {@code key:value}
 * lines, CRLF). Sections: Redis 7's server, clients, memory, persistence, stats, replication, cpu and
 * keyspace, with the fields clients and exporters parse, and {@code most}: the cache's counters, with
 * hits per tier (DRAM, PM, flash), and on a server with tenants {@code tenants}: each tenant's use of
 * the shared devices, throttles and slowdown (a tenant sees its own line only). The keyspace, the
 * keyspace hits and the {@code most} counters are those of the caller's keyspace: a tenant's own
 * cache, or database 0. The default and {@code all} give every section; unknown sections are left out,
 * as Redis does.
 *
 * <p>What differs from Redis: {@code redis_version} is the protocol level the commands follow (7.0.0),
 * memory figures are the JVM heap's (the cache's DRAM is off-heap, reported as {@code maxmemory}), and
 * the keyspace line gives {@code keys} only: counting keys with a lifetime would need a scan of every
 * tier.
 */
final class InfoReport {
    /** Redis 7's sections in its order (modules, errorstats and cluster have nothing to say here), then MOST's. */
    private static final List<String> SECTIONS = List.of("server", "clients", "memory", "persistence", "stats",
            "replication", "cpu", "keyspace", "most", "tenants");
    /** The Redis protocol level whose replies the commands follow: clients gate features on it. */
    private static final String REDIS_VERSION = "7.0.0";
    private static final String RUN_ID = UUID.randomUUID().toString().replace("-", "")
            + UUID.randomUUID().toString().replace("-", "").substring(0, 8);

    /** The largest heap use INFO has seen (Redis's peak is sampled too). */
    private static final java.util.concurrent.atomic.AtomicLong PEAK = new java.util.concurrent.atomic.AtomicLong();

    private InfoReport() {
    }

    static String render(Session session, List<byte[]> requested) {
        ServerContext server = session.server();
        Keyspace keys = session.keyspace();
        Set<String> sections = new LinkedHashSet<>();
        for (byte[] r : requested) {
            String name = CommandTable.lowerName(r);
            if (name.equals("default") || name.equals("all") || name.equals("everything")) {
                sections.addAll(SECTIONS);
            } else if (SECTIONS.contains(name)) {
                sections.add(name);
            }
        }
        if (requested.isEmpty()) {
            sections.addAll(SECTIONS);
        }
        StringBuilder out = new StringBuilder();
        for (String section : SECTIONS) {
            if (!sections.contains(section) || (section.equals("tenants") && server.tenants().entries().isEmpty())) {
                continue;
            }
            if (!out.isEmpty()) {
                out.append("\r\n");
            }
            out.append("# ").append(title(section)).append("\r\n");
            switch (section) {
                case "server" -> server(out, server);
                case "clients" -> clients(out, server);
                case "memory" -> memory(out, server.settings());
                case "persistence" -> persistence(out, server);
                case "stats" -> stats(out, server, keys);
                case "replication" -> replication(out);
                case "cpu" -> cpu(out);
                case "keyspace" -> keyspace(out, keys);
                case "most" -> most(out, server, keys);
                default -> server.tenants().describe(out,
                        server.tenants().isTenant(session.user().name()) ? session.user().name() : null);
            }
        }
        return out.toString();
    }

    private static void server(StringBuilder out, ServerContext server) {
        long uptimeSeconds = (System.currentTimeMillis() - server.stats().startMillis()) / 1000;
        line(out, "redis_version", REDIS_VERSION);
        line(out, "most_version", String.valueOf(InfoReport.class.getPackage().getImplementationVersion()));
        line(out, "redis_mode", "standalone");
        line(out, "os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        line(out, "arch_bits", System.getProperty("sun.arch.data.model", "64"));
        line(out, "multiplexing_api", "netty-nio");
        line(out, "java_version", Runtime.version().toString());
        line(out, "process_id", ProcessHandle.current().pid());
        line(out, "run_id", RUN_ID);
        line(out, "tcp_port", server.address().get().getPort());
        line(out, "server_time_usec", System.currentTimeMillis() * 1000);
        line(out, "uptime_in_seconds", uptimeSeconds);
        line(out, "uptime_in_days", uptimeSeconds / 86400);
        line(out, "io_threads_active", server.settings().threads());
    }

    private static void clients(StringBuilder out, ServerContext server) {
        line(out, "connected_clients", server.stats().connectedClients().get());
        line(out, "cluster_connections", 0);
        line(out, "maxclients", server.settings().maxClients());
        line(out, "blocked_clients", 0);
        line(out, "tracking_clients", 0);
    }

    private static void memory(StringBuilder out, ServerSettings settings) {
        Runtime rt = Runtime.getRuntime();
        long used = rt.totalMemory() - rt.freeMemory();
        line(out, "used_memory", used);
        line(out, "used_memory_human", human(used));
        line(out, "maxmemory", settings.dramBytes());
        line(out, "maxmemory_human", human(settings.dramBytes()));
        line(out, "used_memory_peak", PEAK.accumulateAndGet(used, Math::max));
        line(out, "total_system_memory", totalSystemMemory());
        line(out, "maxmemory_policy", "most-tiered");
        line(out, "mem_allocator", "jvm");
    }

    private static void stats(StringBuilder out, ServerContext server, Keyspace keys) {
        ServerStats s = server.stats();
        CacheStats c = keys.cacheStats();
        line(out, "total_connections_received", s.connectionsReceived());
        line(out, "total_commands_processed", s.commandsProcessed());
        line(out, "rejected_connections", s.rejectedConnections());
        line(out, "expired_keys", c.expirations());
        line(out, "evicted_keys", c.evictions());
        line(out, "expired_stale_perc", "0.00");
        line(out, "keyspace_hits", keys.hits());
        line(out, "keyspace_misses", keys.misses());
        line(out, "total_protocol_errors", s.protocolErrors());
    }

    /**
     * The cache is durable at each flush and at shutdown, not by RDB or AOF: Redis's fields say no
     * snapshot or log is in progress, and the last "save" is the start (a warm start reloads the cache).
     */
    private static void persistence(StringBuilder out, ServerContext server) {
        long startSeconds = server.stats().startMillis() / 1000;
        line(out, "loading", 0);
        line(out, "async_loading", 0);
        line(out, "rdb_changes_since_last_save", 0);
        line(out, "rdb_bgsave_in_progress", 0);
        line(out, "rdb_last_save_time", startSeconds);
        line(out, "rdb_last_bgsave_status", "ok");
        line(out, "aof_enabled", 0);
        line(out, "aof_rewrite_in_progress", 0);
        line(out, "aof_last_bgrewrite_status", "ok");
        line(out, "aof_last_write_status", "ok");
    }

    /** A standalone server: a master without replicas. */
    private static void replication(StringBuilder out) {
        line(out, "role", "master");
        line(out, "connected_slaves", 0);
        line(out, "master_failover_state", "no-failover");
        line(out, "master_replid", RUN_ID);
        line(out, "master_replid2", "0".repeat(40));
        line(out, "master_repl_offset", 0);
        line(out, "second_repl_offset", -1);
        line(out, "repl_backlog_active", 0);
        line(out, "repl_backlog_size", 0);
        line(out, "repl_backlog_first_byte_offset", 0);
        line(out, "repl_backlog_histlen", 0);
    }

    /**
     * The process's CPU time in seconds, system and user, from {@code /proc/self/stat} on Linux; elsewhere
     * the JVM's process CPU time, all counted as user time (the JDK does not split it). No children.
     */
    private static void cpu(StringBuilder out) {
        double[] sysUser = CpuTimes.systemAndUserSeconds();
        line(out, "used_cpu_sys", String.format(Locale.ROOT, "%.6f", sysUser[0]));
        line(out, "used_cpu_user", String.format(Locale.ROOT, "%.6f", sysUser[1]));
        line(out, "used_cpu_sys_children", "0.000000");
        line(out, "used_cpu_user_children", "0.000000");
    }

    private static void keyspace(StringBuilder out, Keyspace keyspace) {
        long keys = keyspace.size();
        if (keys > 0) { // Redis lists only databases that hold keys
            line(out, "db0", "keys=" + keys);
        }
    }

    private static void most(StringBuilder out, ServerContext server, Keyspace keys) {
        ServerSettings settings = server.settings();
        CacheStats c = keys.cacheStats();
        PageStoreStats p = c.pageStore();
        line(out, "most_data_dir", settings.dataDirectory().toAbsolutePath());
        // the sizes of the caller's cache: the server's, or its tenant's own
        io.most.cache.CacheConfig sizes = keys.cacheConfig();
        line(out, "most_dram_bytes", sizes.dramBytes());
        line(out, "most_pm_bytes", sizes.pmBytes());
        line(out, "most_ssd_bytes", sizes.smallItemBytes());
        line(out, "most_region_bytes", sizes.largeItemBytes());
        line(out, "most_hits", c.hits());
        line(out, "most_misses", c.misses());
        line(out, "most_hit_ratio", Double.isNaN(c.hitRatio()) ? "0" : String.format(Locale.ROOT, "%.4f", c.hitRatio()));
        // where reads were served: bucket pages by the page store's tiers, large items by the region buffer or flash
        line(out, "most_tier_dram_hits", p.dramHits() + c.regionBufferHits() + c.smallItemFrontHits() + c.frontHits());
        line(out, "most_tier_pm_hits", p.pmHits());
        line(out, "most_tier_flash_reads", p.misses() + c.regionDeviceReads());
        line(out, "most_small_item_hits", c.smallItemHits());
        line(out, "most_large_item_hits", c.largeItemHits());
        line(out, "most_small_item_front_hits", c.smallItemFrontHits());
        line(out, "most_large_item_front_hits", c.frontHits());
        // SETs the small items' DRAM front took alone (no page read or written), those that first removed
        // an older copy from a bucket page, the dirty items written back, and the bytes a crash would lose
        line(out, "most_small_item_front_writes_absorbed", c.smallItemWritesAbsorbed());
        line(out, "most_small_item_front_invalidations", c.smallItemFrontInvalidations());
        line(out, "most_small_item_front_writebacks", c.smallItemWriteBacks());
        line(out, "most_small_item_front_dirty_bytes", c.smallItemDirtyBytes());
        line(out, "most_filter_rejects", c.filterRejects());
        line(out, "most_page_dram_hits", p.dramHits());
        line(out, "most_page_pm_hits", p.pmHits());
        line(out, "most_page_device_reads", p.misses());
        line(out, "most_page_device_writes", p.ssdWrites());
        line(out, "most_region_buffer_hits", c.regionBufferHits());
        line(out, "most_region_device_reads", c.regionDeviceReads());
        line(out, "most_puts", c.puts());
        line(out, "most_removals", c.removals());
        line(out, "most_evictions", c.evictions());
        line(out, "most_expirations", c.expirations());
        line(out, "most_reinsertions", c.reinsertions());
        line(out, "most_bucket_overflows", c.bucketOverflows());
        line(out, "most_corrupt_items", c.corruptItems());
        line(out, "most_entries", c.entries());
        line(out, "most_small_item_entries", c.smallItemEntries());
        line(out, "most_large_item_entries", c.largeItemEntries());
    }

    /** A section's header as Redis writes it: "Server", "Clients"..., and "CPU". */
    private static String title(String section) {
        return section.equals("cpu") ? "CPU" : Character.toUpperCase(section.charAt(0)) + section.substring(1);
    }

    private static long totalSystemMemory() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os ? os.getTotalMemorySize() : 0;
    }

    private static void line(StringBuilder out, String key, Object value) {
        out.append(key).append(':').append(value).append("\r\n");
    }

    private static String human(long bytes) {
        if (bytes < 1024) {
            return bytes + "B";
        }
        String units = "KMGTPE";
        double v = bytes;
        int u = -1;
        while (v >= 1024 && u < units.length() - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.2f%c", v, units.charAt(u));
    }
}
