package io.most.examples.cacheserver.command;

import static io.most.examples.cacheserver.command.CommandSpec.command;
import static io.most.examples.cacheserver.command.CommandSpec.container;

import io.most.examples.cacheserver.protocol.Replies;
import io.netty.handler.codec.redis.RedisMessage;
import java.util.List;

/**
 * Connection and server commands: PING, ECHO, SELECT, QUIT, CLIENT (ID, SETNAME, GETNAME), DBSIZE,
 * FLUSHDB, FLUSHALL, INFO, SHUTDOWN.
 */
final class ServerCommands {

    private ServerCommands() {
    }

    static List<CommandSpec> specs() {
        return List.of(
                command("ping", -1, "fast", 0, 0, 0, "connection", "Ping the server", ServerCommands::ping),
                command("echo", 2, "fast", 0, 0, 0, "connection", "Echo the given string",
                        (s, a) -> Replies.bulk(a.get(1))),
                command("select", 2, "loading stale fast", 0, 0, 0, "connection",
                        "Change the selected database for the current connection", ServerCommands::select),
                command("quit", -1, "noscript loading stale fast no_auth allow_busy", 0, 0, 0, "connection",
                        "Close the connection", ServerCommands::quit),
                container("client", "connection", "A container for client connection commands", null, List.of(
                        command("client|id", 2, "loading stale", 0, 0, 0, "connection",
                                "Returns the client ID for the current connection",
                                (s, a) -> Replies.integer(s.id())),
                        command("client|setname", 3, "loading stale", 0, 0, 0, "connection",
                                "Set the current connection name", ServerCommands::setName),
                        command("client|getname", 2, "loading stale", 0, 0, 0, "connection",
                                "Get the current connection name", (s, a) -> Replies.bulk(s.name())))),
                command("dbsize", 1, "readonly fast", 0, 0, 0, "server",
                        "Return the number of keys in the selected database",
                        (s, a) -> Replies.integer(s.keyspace().size())),
                command("flushdb", -1, "write", 0, 0, 0, "server", "Remove all keys from the current database",
                        ServerCommands::flush),
                command("flushall", -1, "write", 0, 0, 0, "server", "Remove all keys from all databases",
                        ServerCommands::flush),
                command("info", -1, "loading stale", 0, 0, 0, "server",
                        "Get information and statistics about the server",
                        (s, a) -> Replies.bulk(InfoReport.render(s, a.subList(1, a.size())))),
                command("shutdown", -1, "admin noscript loading stale", 0, 0, 0, "server",
                        "Synchronously save the dataset to disk and then shut down the server",
                        ServerCommands::shutdown));
    }

    private static RedisMessage ping(Session s, List<byte[]> a) {
        if (a.size() > 2) {
            throw CommandException.wrongArity("ping");
        }
        return a.size() == 1 ? Replies.PONG : Replies.bulk(a.get(1));
    }

    private static RedisMessage select(Session s, List<byte[]> a) {
        // one database: Redis started with "databases 1" answers the same
        long index = RedisNumbers.parseLong(a.get(1));
        if (index != (int) index) { // Redis reads the index as an int
            throw new CommandException("ERR value is out of range, value must between " + Integer.MIN_VALUE
                    + " and " + Integer.MAX_VALUE);
        }
        if (index != 0) {
            throw new CommandException("ERR DB index is out of range");
        }
        return Replies.OK;
    }

    private static RedisMessage quit(Session s, List<byte[]> a) {
        s.closeAfterReply();
        return Replies.OK;
    }

    private static RedisMessage setName(Session s, List<byte[]> a) {
        byte[] name = a.get(2);
        for (byte b : name) {
            // Redis's rule: printable ASCII without spaces
            if (b < '!' || b > '~') {
                throw new CommandException("ERR Client names cannot contain spaces, newlines or special characters.");
            }
        }
        s.name(name);
        return Replies.OK;
    }

    private static RedisMessage flush(Session s, List<byte[]> a) {
        if (a.size() > 2) {
            throw CommandException.syntax();
        }
        if (a.size() == 2) {
            String mode = CommandTable.lowerName(a.get(1));
            if (!mode.equals("sync") && !mode.equals("async")) {
                throw CommandException.syntax();
            }
        }
        s.keyspace().clear();
        return Replies.OK;
    }

    private static RedisMessage shutdown(Session s, List<byte[]> a) {
        for (int i = 1; i < a.size(); i++) {
            switch (CommandTable.lowerName(a.get(i))) {
                case "nosave", "save", "now", "force" -> {
                    // the cache is always flushed and closed: a cache keeps what it has across a restart
                }
                case "abort" -> throw new CommandException("ERR No shutdown in progress.");
                default -> throw CommandException.syntax();
            }
        }
        // no reply, as Redis: the connection closes, and what the client sent after SHUTDOWN is not run
        s.closeAfterReply();
        s.server().shutdown().run();
        return null;
    }
}
