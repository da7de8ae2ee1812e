package io.most.examples.cacheserver.acl;

import io.most.examples.cacheserver.command.CommandSpec;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The ACL categories of a command ({@code @read}, {@code @write}, {@code @dangerous}...) as Redis 7.0
 * gives them: implied by the command's flags ({@code write}, {@code readonly}, {@code admin},
 * {@code fast}) as Redis's {@code setImplicitACLCategories} does, plus the categories Redis's command
 * table names explicitly, which here follow from the command's group and a short list of exceptions.
 * A test compares every command's categories with {@code COMMAND INFO} of a real redis-server.
 */
public final class AclCategories {
    /** Every category Redis 7.0 has: a rule naming another is an error, as in Redis. */
    public static final List<String> ALL = List.of("keyspace", "read", "write", "set", "sortedset", "list", "hash",
            "string", "bitmap", "hyperloglog", "geo", "stream", "pubsub", "admin", "fast", "slow", "blocking",
            "dangerous", "connection", "transaction", "scripting");

    /** Categories Redis's command table adds that neither the flags nor the group imply. */
    private static final Map<String, List<String>> EXPLICIT = Map.of(
            "dbsize", List.of("keyspace"),
            "flushdb", List.of("keyspace", "dangerous"),
            "flushall", List.of("keyspace", "dangerous"),
            "keys", List.of("dangerous"),
            "info", List.of("dangerous"));

    private AclCategories() {
    }

    /** The categories of {@code spec} (a command or a subcommand such as {@code config|get}), without {@code @}. */
    public static Set<String> of(CommandSpec spec) {
        Set<String> out = new LinkedHashSet<>();
        List<String> flags = spec.flags();
        if (flags.contains("write")) {
            out.add("write");
        }
        if (flags.contains("readonly")) {
            out.add("read");
        }
        if (flags.contains("admin")) {
            out.add("admin");
            out.add("dangerous");
        }
        out.add(flags.contains("fast") ? "fast" : "slow");
        // a container without an action of its own (CLIENT, CONFIG, ACL) is only @slow in Redis: its
        // subcommands carry the categories
        boolean bareContainer = !spec.subcommands().isEmpty() && spec.action() == null;
        if (!bareContainer) {
            String topLevel = spec.name().contains("|") ? spec.name().substring(0, spec.name().indexOf('|'))
                    : spec.name();
            switch (spec.group()) {
                case "string" -> out.add("string");
                case "generic" -> out.add("keyspace");
                case "hash" -> out.add("hash");
                case "connection" -> out.add("connection");
                default -> {
                    if (topLevel.equals("command")) {
                        out.add("connection");
                    }
                }
            }
            out.addAll(EXPLICIT.getOrDefault(spec.name(), List.of()));
        }
        return out;
    }
}
