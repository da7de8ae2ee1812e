package io.most.examples.cacheserver.command;

import io.most.cache.ItemTooLargeException;
import io.most.examples.cacheserver.protocol.Replies;
import io.netty.handler.codec.redis.RedisMessage;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The commands the server knows, by name, and the dispatch of one request to its command: unknown
 * commands, subcommands and argument counts are refused with Redis's own error texts, then a session
 * not authenticated or not permitted (see {@link Access}), in Redis's order; every failure
 * of a command becomes an error reply rather than a closed connection. Thread-safe once built.
 */
public final class CommandTable {
    private static final Logger LOG = Logger.getLogger(CommandTable.class.getName());
    /** How much of an unknown command and its arguments Redis echoes back. */
    private static final int ECHO_LIMIT = 128;

    private final Map<String, CommandSpec> commands;
    /**
     * The commands by their lower- and upper-case names: clients send one or the other, and a request's
     * name is then found without lower-casing it (a second string per request).
     */
    private final Map<String, CommandSpec> byExactName = new HashMap<>();

    private CommandTable(Map<String, CommandSpec> commands) {
        this.commands = Collections.unmodifiableMap(commands);
        commands.forEach((name, spec) -> {
            byExactName.put(name, spec);
            byExactName.put(name.toUpperCase(Locale.ROOT), spec);
        });
    }

    /** Every command this server implements. */
    public static CommandTable standard() {
        Map<String, CommandSpec> byName = new LinkedHashMap<>();
        List<List<CommandSpec>> groups = List.of(StringCommands.specs(), HashCommands.specs(), KeyCommands.specs(),
                ScanCommands.specs(), ServerCommands.specs(), AclCommands.specs());
        for (List<CommandSpec> group : groups) {
            for (CommandSpec spec : group) {
                byName.put(spec.name(), spec);
            }
        }
        CommandTable[] self = new CommandTable[1];
        for (CommandSpec spec : IntrospectionCommands.specs(() -> self[0])) {
            byName.put(spec.name(), spec);
        }
        self[0] = new CommandTable(byName);
        return self[0];
    }

    /** The commands, in the order they were registered. */
    public Collection<CommandSpec> all() {
        return commands.values();
    }

    /** The command named {@code name} (any case), or null. */
    public CommandSpec find(String name) {
        return commands.get(name.toLowerCase(Locale.ROOT));
    }

    /**
     * Runs the request {@code args} (name first) for {@code session}.
     *
     * @return the reply (an error reply for any failure), or null when the command gives none
     */
    public RedisMessage execute(Session session, List<byte[]> args) {
        session.server().stats().commandProcessed();
        try {
            CommandSpec spec = byExactName.get(new String(args.get(0), StandardCharsets.ISO_8859_1));
            if (spec == null) {
                spec = commands.get(lowerName(args.get(0))); // mixed case: "Get"
            }
            if (spec == null) {
                throw unknownCommand(args);
            }
            if (!spec.acceptsArgumentCount(args.size())) {
                throw CommandException.wrongArity(spec.name());
            }
            CommandSpec top = spec;
            if (!spec.subcommands().isEmpty() && args.size() > 1) {
                CommandSpec sub = spec.subcommands().get(lowerName(args.get(1)));
                if (sub == null) {
                    throw CommandException.unknownSubcommand(text(args.get(1)), spec.name());
                }
                if (!sub.acceptsArgumentCount(args.size())) {
                    throw CommandException.wrongArity(sub.name());
                }
                spec = sub;
            }
            Access.check(session, top, spec, args);
            return spec.action().run(session, args);
        } catch (CommandException e) {
            return Replies.error(e.getMessage());
        } catch (ItemTooLargeException e) {
            return Replies.error("ERR " + e.getMessage());
        } catch (RuntimeException e) {
            // a device failure or a cache closed by a shutdown: the client gets an error, the server goes on
            LOG.log(Level.WARNING, "command " + text(args.get(0)) + " failed", e);
            return Replies.error("ERR " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private static CommandException unknownCommand(List<byte[]> args) {
        StringBuilder echoed = new StringBuilder();
        for (int i = 1; i < args.size() && echoed.length() < ECHO_LIMIT; i++) {
            int budget = ECHO_LIMIT - echoed.length();
            echoed.append('\'').append(CommandException.truncate(text(args.get(i)), budget)).append("' ");
        }
        return new CommandException("ERR unknown command '" + CommandException.truncate(text(args.get(0)), ECHO_LIMIT)
                + "', with args beginning with: " + echoed);
    }

    /** A command or option name in lower case (ASCII: names are never compared beyond it). */
    static String lowerName(byte[] name) {
        return new String(name, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
    }

    /** Argument bytes as text, for error messages and names. */
    static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
