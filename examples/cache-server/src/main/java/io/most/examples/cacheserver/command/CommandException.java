package io.most.examples.cacheserver.command;

import java.io.Serial;

/**
 * A command failed with an error reply. The message is the reply's text as Redis spells it, with its
 * prefix ({@code ERR ...}, {@code WRONGTYPE ...}); the client sees it and the connection stays open.
 */
public final class CommandException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * An error reply.
     *
     * @param reply the text after the {@code -}, e.g. {@code ERR syntax error}
     */
    public CommandException(String reply) {
        super(reply, null, false, false);
    }

    /** {@code WRONGTYPE}: a command on a key holding another type. */
    public static CommandException wrongType() {
        return new CommandException("WRONGTYPE Operation against a key holding the wrong kind of value");
    }

    /** {@code ERR syntax error}. */
    public static CommandException syntax() {
        return new CommandException("ERR syntax error");
    }

    /** {@code ERR value is not an integer or out of range}. */
    public static CommandException notAnInteger() {
        return new CommandException("ERR value is not an integer or out of range");
    }

    /** {@code ERR wrong number of arguments for 'name' command} ({@code name} lower case as Redis prints it). */
    public static CommandException wrongArity(String name) {
        return new CommandException("ERR wrong number of arguments for '" + name + "' command");
    }

    /** {@code ERR invalid expire time in 'name' command}. */
    public static CommandException invalidExpire(String name) {
        return new CommandException("ERR invalid expire time in '" + name + "' command");
    }

    /** {@code ERR unknown subcommand 'sub'. Try NAME HELP.} */
    public static CommandException unknownSubcommand(String sub, String container) {
        return new CommandException("ERR unknown subcommand '" + truncate(sub, 128) + "'. Try "
                + container.toUpperCase(java.util.Locale.ROOT) + " HELP.");
    }

    static String truncate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }
}
