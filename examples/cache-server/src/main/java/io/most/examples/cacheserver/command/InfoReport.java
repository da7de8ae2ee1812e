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
 * lines, CRLF). Sections: server, clients, memory, stats, keyspace, and {@code most}: the cache's
 * counters, with hits per tier (DRAM, PM, flash). The default and {@code all} give every section;
 * unknown sections are left out, as Redis does.
 *
 * <p>What differs from Redis: {@code redis_version} is the protocol level the commands follow (7.0.0),
 * memory figures are the JVM heap's (the cache's DRAM is off-heap, reported as {@code maxmemory}), and
 * the keyspace line gives {@code keys} only: counting keys with a lifetime would need a scan of every
 * tier.
 */
final class InfoReport {
    private static final List<String> SECTIONS = List.of("server", "clients", "memory", "stats", "keyspace", "most");
    /** The Redis protocol level whose replies the commands follow: clients gate features on it. */
    private static final String REDIS_VERSION = "7.0.0";
    private static final String RUN_ID = UUID.randomUUID().toString().replace("-", "")
            + UUID.randomUUID().toString().replace("-", "").substring(0, 8);

    private InfoReport() {
    }

    static String render(ServerContext server, List<byte[]> requested) {
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
            if (!sections.contains(section)) {
                continue;
            }
            if (!out.isEmpty()) {
                out.append("\r\n");
            }
            out.append("# ").append(Character.toUpperCase(section.charAt(0))).append(section.substring(1)).append("\r\n");
            switch (section) {
                case "server" -> server(out, server);
                case "clients" -> clients(out, server);
                case "memory" -> memory(out, server.settings());
                case "stats" -> stats(out, server);
                case "keyspace" -> keyspace(out, server.keyspace());
                default -> most(out, server);
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
        line(out, "maxclients", server.settings().maxClients());
    }

    private static void memory(StringBuilder out, ServerSettings settings) {
        Runtime rt = Runtime.getRuntime();
        long used = rt.totalMemory() - rt.freeMemory();
        line(out, "used_memory", used);
        line(out, "used_memory_human", human(used));
        line(out, "maxmemory", settings.dramBytes());
        line(out, "maxmemory_human", human(settings.dramBytes()));
        line(out, "maxmemory_policy", "most-tiered");
        line(out, "mem_allocator", "jvm");
    }

    private static void stats(StringBuilder out, ServerContext server) {
        ServerStats s = server.stats();
        CacheStats c = server.keyspace().cacheStats();
        line(out, "total_connections_received", s.connectionsReceived());
        line(out, "total_commands_processed", s.commandsProcessed());
        line(out, "rejected_connections", s.rejectedConnections());
        line(out, "expired_keys", c.expirations());
        line(out, "evicted_keys", c.evictions());
        line(out, "keyspace_hits", server.keyspace().hits());
        line(out, "keyspace_misses", server.keyspace().misses());
        line(out, "total_protocol_errors", s.protocolErrors());
    }

    private static void keyspace(StringBuilder out, Keyspace keyspace) {
        long keys = keyspace.size();
        if (keys > 0) { // Redis lists only databases that hold keys
            line(out, "db0", "keys=" + keys);
        }
    }

    private static void most(StringBuilder out, ServerContext server) {
        ServerSettings settings = server.settings();
        CacheStats c = server.keyspace().cacheStats();
        PageStoreStats p = c.pageStore();
        line(out, "most_data_dir", settings.dataDirectory().toAbsolutePath());
        line(out, "most_dram_bytes", settings.dramBytes());
        line(out, "most_pm_bytes", settings.pmBytes());
        line(out, "most_ssd_bytes", settings.ssdBytes());
        line(out, "most_region_bytes", settings.regionBytes());
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
