package io.most.examples.cacheserver.command;

import static io.most.examples.cacheserver.command.CommandSpec.command;
import static io.most.examples.cacheserver.command.CommandSpec.container;

import io.most.examples.cacheserver.acl.AclCategories;
import io.most.examples.cacheserver.acl.Glob;
import io.most.examples.cacheserver.protocol.Replies;
import io.netty.handler.codec.redis.RedisMessage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What clients and tools ask about the server: {@code COMMAND} (COUNT, INFO, DOCS: name, arity, flags
 * key positions and ACL categories, a summary and a group; no key specs or tips) and
 * {@code CONFIG GET} (the parameters {@code redis-benchmark} and common clients read at start).
 */
final class IntrospectionCommands {

    /** CONFIG GET's parameters, in the order they are listed. */
    private static final Map<String, Function<ServerContext, String>> CONFIG = configParameters();

    private IntrospectionCommands() {
    }

    static List<CommandSpec> specs(Supplier<CommandTable> table) {
        return List.of(
                container("command", "server", "Get array of Redis command details",
                        (s, a) -> infos(table.get().all()), List.of(
                                command("command|count", 2, "loading stale", 0, 0, 0, "server",
                                        "Get total number of Redis commands",
                                        (s, a) -> Replies.integer(table.get().all().size())),
                                command("command|info", -2, "loading stale", 0, 0, 0, "server",
                                        "Get array of specific Redis command details, or all when no argument is given",
                                        (s, a) -> info(table.get(), a)),
                                command("command|docs", -2, "loading stale", 0, 0, 0, "server",
                                        "Get array of specific Redis command documentation",
                                        (s, a) -> docs(table.get(), a)))),
                container("config", "server", "A container for server configuration commands", null, List.of(
                        command("config|get", -3, "admin noscript loading stale", 0, 0, 0, "server",
                                "Get the values of configuration parameters", IntrospectionCommands::configGet))));
    }

    private static RedisMessage infos(Iterable<CommandSpec> specs) {
        List<RedisMessage> out = new ArrayList<>();
        for (CommandSpec spec : specs) {
            out.add(info(spec));
        }
        return Replies.array(out);
    }

    private static RedisMessage info(CommandTable table, List<byte[]> a) {
        if (a.size() == 2) {
            return infos(table.all());
        }
        List<RedisMessage> out = new ArrayList<>();
        for (int i = 2; i < a.size(); i++) {
            CommandSpec spec = table.find(CommandTable.text(a.get(i)));
            out.add(spec == null ? Replies.NIL : info(spec));
        }
        return Replies.array(out);
    }

    /** Redis 7's ten-element command info; tips and key specs are left empty. */
    private static RedisMessage info(CommandSpec spec) {
        List<RedisMessage> flags = new ArrayList<>();
        for (String flag : spec.flags()) {
            flags.add(Replies.simple(flag));
        }
        List<RedisMessage> subs = new ArrayList<>();
        for (CommandSpec sub : spec.subcommands().values()) {
            subs.add(info(sub));
        }
        List<RedisMessage> categories = new ArrayList<>();
        for (String category : AclCategories.of(spec)) {
            categories.add(Replies.simple("@" + category));
        }
        return Replies.array(List.of(Replies.bulk(spec.name()), Replies.integer(spec.arity()), Replies.array(flags),
                Replies.integer(spec.firstKey()), Replies.integer(spec.lastKey()), Replies.integer(spec.keyStep()),
                Replies.array(categories), Replies.array(List.of()), Replies.array(List.of()), Replies.array(subs)));
    }

    private static RedisMessage docs(CommandTable table, List<byte[]> a) {
        List<RedisMessage> out = new ArrayList<>();
        if (a.size() == 2) {
            for (CommandSpec spec : table.all()) {
                addDoc(out, spec);
            }
        } else {
            for (int i = 2; i < a.size(); i++) {
                CommandSpec spec = table.find(CommandTable.text(a.get(i)));
                if (spec != null) {
                    addDoc(out, spec);
                }
            }
        }
        return Replies.array(out);
    }

    private static void addDoc(List<RedisMessage> out, CommandSpec spec) {
        out.add(Replies.bulk(spec.name()));
        out.add(Replies.array(List.of(Replies.bulk("summary"), Replies.bulk(spec.summary()),
                Replies.bulk("group"), Replies.bulk(spec.group()))));
    }

    private static RedisMessage configGet(Session s, List<byte[]> a) {
        Map<String, String> matched = new LinkedHashMap<>();
        for (int i = 2; i < a.size(); i++) {
            String pattern = CommandTable.lowerName(a.get(i));
            for (Map.Entry<String, Function<ServerContext, String>> p : CONFIG.entrySet()) {
                if (Glob.matches(pattern, p.getKey())) {
                    matched.putIfAbsent(p.getKey(), p.getValue().apply(s.server()));
                }
            }
        }
        List<RedisMessage> out = new ArrayList<>(matched.size() * 2);
        matched.forEach((name, value) -> {
            out.add(Replies.bulk(name));
            out.add(Replies.bulk(value));
        });
        return Replies.array(out);
    }

    private static Map<String, Function<ServerContext, String>> configParameters() {
        Map<String, Function<ServerContext, String>> p = new LinkedHashMap<>();
        // no snapshots and no append-only file: the cache's own files persist it (redis-benchmark asks for both)
        p.put("save", c -> "");
        p.put("appendonly", c -> "no");
        p.put("bind", c -> c.settings().bind());
        p.put("port", c -> Integer.toString(c.address().get().getPort()));
        p.put("databases", c -> "1");
        p.put("dir", c -> c.settings().dataDirectory().toAbsolutePath().toString());
        p.put("maxclients", c -> Integer.toString(c.settings().maxClients()));
        p.put("timeout", c -> Long.toString(c.settings().idleTimeout().toSeconds()));
        p.put("proto-max-bulk-len", c -> Integer.toString(c.settings().maxBulkBytes()));
        p.put("maxmemory", c -> Long.toString(c.settings().dramBytes()));
        p.put("io-threads", c -> Integer.toString(c.settings().threads()));
        return p;
    }
}
