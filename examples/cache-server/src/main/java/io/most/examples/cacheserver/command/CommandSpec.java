package io.most.examples.cacheserver.command;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One command: its name, its arity as Redis counts it (positive: exactly that many arguments, the name
 * included; negative: at least that many), what {@code COMMAND INFO} and {@code COMMAND DOCS} say of it,
 * and either an action or subcommands ({@code CONFIG GET}).
 *
 * @param name        lower case, as Redis prints it in errors ({@code config|get} for a subcommand)
 * @param arity       Redis's arity
 * @param flags       {@code write}, {@code readonly}, {@code fast}... as in {@code COMMAND INFO}
 * @param firstKey    position of the first key, 0 for none
 * @param lastKey     position of the last key (-1: the last argument)
 * @param keyStep     step between keys
 * @param group       the {@code COMMAND DOCS} group ({@code string}, {@code generic}, {@code server}...)
 * @param summary     one line for {@code COMMAND DOCS}
 * @param action      what it does; for a container, what it does without a subcommand (null: nothing)
 * @param subcommands by lower-case name, empty for a plain command
 */
public record CommandSpec(String name, int arity, List<String> flags, int firstKey, int lastKey, int keyStep,
                          String group, String summary, CommandAction action, Map<String, CommandSpec> subcommands) {

    public CommandSpec {
        Objects.requireNonNull(name, "name");
        flags = List.copyOf(flags);
        subcommands = Map.copyOf(subcommands);
        if (action == null && subcommands.isEmpty()) {
            throw new IllegalArgumentException(name + ": give an action or subcommands");
        }
    }

    /** Whether {@code argc} arguments (the name included) fit the arity. */
    public boolean acceptsArgumentCount(int argc) {
        return arity > 0 ? argc == arity : argc >= -arity;
    }

    /** A plain command; {@code flags} space-separated. */
    public static CommandSpec command(String name, int arity, String flags, int firstKey, int lastKey, int keyStep,
                                      String group, String summary, CommandAction action) {
        return new CommandSpec(name, arity, List.of(flags.split(" ")), firstKey, lastKey, keyStep, group, summary,
                Objects.requireNonNull(action, "action"), Map.of());
    }

    /**
     * A container ({@code CONFIG}, {@code CLIENT}, {@code COMMAND}) of {@code subcommands}, whose own
     * {@code action} (or null) runs when the request names no subcommand (arity -1 then, else -2).
     */
    public static CommandSpec container(String name, String group, String summary, CommandAction action,
                                        List<CommandSpec> subcommands) {
        Map<String, CommandSpec> byName = new java.util.HashMap<>();
        for (CommandSpec sub : subcommands) {
            byName.put(sub.name().substring(sub.name().indexOf('|') + 1), sub);
        }
        return new CommandSpec(name, action == null ? -2 : -1, List.of(), 0, 0, 0, group, summary, action, byName);
    }
}
