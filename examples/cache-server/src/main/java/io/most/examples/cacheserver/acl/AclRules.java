package io.most.examples.cacheserver.acl;

import io.most.examples.cacheserver.command.CommandSpec;
import io.most.examples.cacheserver.command.CommandTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Builds an {@link AclUser} from Redis 7 ACL rules applied in order, as {@code ACL SETUSER} and an ACL
 * file line do: {@code on}, {@code off}, {@code nopass}, {@code resetpass}, {@code >pass},
 * {@code <pass}, {@code #hash}, {@code !hash}, {@code ~pattern}, {@code allkeys}, {@code resetkeys},
 * {@code &pattern}, {@code allchannels}, {@code resetchannels}, {@code +@category}, {@code -@category},
 * {@code +command}, {@code -command}, {@code +command|sub}, {@code -command|sub}, {@code allcommands},
 * {@code nocommands}, {@code reset}, {@code sanitize-payload}, {@code skip-sanitize-payload}. Rules
 * outside this subset (read-only or write-only key patterns {@code %R~}, selectors {@code (...)},
 * first-argument rules) are refused by name rather than ignored: a rule that silently did nothing would
 * grant more than its author meant. Not thread-safe; one per user being built.
 */
public final class AclRules {
    private final CommandTable commands;
    private final String name;
    private boolean enabled;
    private boolean nopass;
    private String payloadFlag;
    private final List<byte[]> hashes = new ArrayList<>();
    private boolean allKeys;
    private final List<String> keyPatterns = new ArrayList<>();
    private boolean allChannels;
    private final List<String> channelPatterns = new ArrayList<>();
    private boolean futureCommands;
    /** The command rules in effect, by lower-case name (category with its {@code @}), in order. */
    private final Map<String, Boolean> commandRules = new LinkedHashMap<>();
    private final Set<String> allowed = new HashSet<>();

    /** A new user named {@code name}: as Redis creates one, off, without passwords, keys or commands. */
    public AclRules(CommandTable commands, String name) {
        this.commands = commands;
        this.name = name;
    }

    /** Redis's default user when no ACL file defines it: {@code on nopass ~* &* +@all}. */
    public static AclUser defaultUser(CommandTable commands, byte[] requirePass) {
        AclRules r = new AclRules(commands, "default");
        for (String rule : List.of("on", "allkeys", "allchannels", "allcommands")) {
            r.apply(rule);
        }
        if (requirePass == null) {
            r.apply("nopass");
        } else {
            r.hashes.add(Passwords.hash(requirePass));
        }
        return r.build();
    }

    /**
     * Applies one rule.
     *
     * @throws IllegalArgumentException with what is wrong with the rule (Redis's reason where it has one)
     */
    public AclRules apply(String rule) {
        String lower = rule.toLowerCase(Locale.ROOT);
        switch (lower) {
            case "on" -> enabled = true;
            case "off" -> enabled = false;
            case "nopass" -> {
                nopass = true;
                hashes.clear();
            }
            case "resetpass" -> {
                nopass = false;
                hashes.clear();
            }
            case "sanitize-payload", "skip-sanitize-payload" -> payloadFlag = lower;
            case "allkeys" -> {
                allKeys = true;
                keyPatterns.clear();
            }
            case "resetkeys" -> {
                allKeys = false;
                keyPatterns.clear();
            }
            case "allchannels" -> {
                allChannels = true;
                channelPatterns.clear();
            }
            case "resetchannels" -> {
                allChannels = false;
                channelPatterns.clear();
            }
            case "allcommands", "+@all" -> setAllCommands(true);
            case "nocommands", "-@all" -> setAllCommands(false);
            case "reset" -> {
                for (String r : List.of("resetpass", "resetkeys", "resetchannels", "off", "-@all")) {
                    apply(r);
                }
                payloadFlag = null;
            }
            default -> applyWithOperand(rule);
        }
        return this;
    }

    private void applyWithOperand(String rule) {
        if (rule.isEmpty()) {
            throw new IllegalArgumentException("Syntax error");
        }
        String operand = rule.substring(1);
        switch (rule.charAt(0)) {
            case '>' -> addHash(Passwords.hash(operand));
            case '#' -> addHash(Passwords.parseHex(operand));
            case '<' -> removeHash(Passwords.hash(operand));
            case '!' -> removeHash(Passwords.parseHex(operand));
            case '~' -> addKeyPattern(operand);
            case '&' -> addChannelPattern(operand);
            case '+', '-' -> commandRule(operand.toLowerCase(Locale.ROOT), rule.charAt(0) == '+');
            case '%' -> throw new IllegalArgumentException("read-only and write-only key patterns (" + rule
                    + ") are not supported by this server: use ~pattern, which allows reading and writing");
            case '(' -> throw new IllegalArgumentException("selectors (" + rule
                    + " ...) are not supported by this server: give the user one set of keys and commands");
            default -> throw new IllegalArgumentException("Syntax error");
        }
    }

    private void addHash(byte[] hash) {
        nopass = false;
        if (hashes.stream().noneMatch(h -> Arrays.equals(h, hash))) {
            hashes.add(hash);
        }
    }

    private void removeHash(byte[] hash) {
        if (!hashes.removeIf(h -> Arrays.equals(h, hash))) {
            throw new IllegalArgumentException("no such password to remove from user '" + name + "'");
        }
        nopass = false;
    }

    private void addKeyPattern(String pattern) {
        allKeys = addPattern(pattern, allKeys, keyPatterns, "allkeys", "resetkeys", "patterns");
    }

    private void addChannelPattern(String pattern) {
        allChannels = addPattern(pattern, allChannels, channelPatterns, "allchannels", "resetchannels", "channels");
    }

    /**
     * Adds {@code pattern} to {@code patterns} (once) as Redis does: {@code *} stands for every name and
     * replaces the list; a pattern after it is an error. Returns whether every name is now allowed.
     */
    private static boolean addPattern(String pattern, boolean all, List<String> patterns, String allFlag,
                                      String reset, String what) {
        if (all) {
            throw new IllegalArgumentException("Adding a pattern after the * pattern (or the '" + allFlag + "' flag)"
                    + " is not valid and does not have any effect. Try '" + reset + "' to start with an empty list of "
                    + what);
        }
        if (pattern.equals("*")) {
            patterns.clear();
            return true;
        }
        if (!patterns.contains(pattern)) {
            patterns.add(pattern);
        }
        return false;
    }

    private void setAllCommands(boolean all) {
        futureCommands = all;
        commandRules.clear();
        allowed.clear();
        if (all) {
            for (CommandSpec spec : commands.all()) {
                allowed.addAll(namesOf(spec));
            }
        }
    }

    private void commandRule(String target, boolean allow) {
        Set<String> names = new HashSet<>();
        if (target.startsWith("@")) {
            String category = target.substring(1);
            if (!AclCategories.ALL.contains(category)) {
                throw new IllegalArgumentException("Unknown command or category name in ACL");
            }
            for (CommandSpec spec : commands.all()) {
                for (CommandSpec s : withSubcommands(spec)) {
                    if (AclCategories.of(s).contains(category)) {
                        names.add(s.name());
                    }
                }
            }
        } else {
            int bar = target.indexOf('|');
            CommandSpec spec = commands.find(bar < 0 ? target : target.substring(0, bar));
            if (spec == null) {
                throw new IllegalArgumentException("Unknown command or category name in ACL");
            }
            if (bar < 0) {
                names.addAll(namesOf(spec));
            } else {
                CommandSpec sub = spec.subcommands().get(target.substring(bar + 1));
                if (sub == null) {
                    throw new IllegalArgumentException(spec.subcommands().isEmpty()
                            ? "first-argument rules (" + target + ") are not supported by this server: allow or"
                                    + " deny the whole command"
                            : "Unknown command or category name in ACL");
                }
                names.add(sub.name());
            }
        }
        if (allow) {
            allowed.addAll(names);
        } else {
            allowed.removeAll(names);
        }
        // as Redis's ACLUpdateCommandRules: a later rule on the same name replaces the earlier one
        commandRules.remove(target);
        commandRules.put(target, allow);
    }

    private static List<CommandSpec> withSubcommands(CommandSpec spec) {
        List<CommandSpec> out = new ArrayList<>();
        out.add(spec);
        out.addAll(spec.subcommands().values());
        return out;
    }

    private static List<String> namesOf(CommandSpec spec) {
        return withSubcommands(spec).stream().map(CommandSpec::name).toList();
    }

    /** The user as the rules so far describe it. */
    public AclUser build() {
        StringBuilder rules = new StringBuilder();
        commandRules.forEach((target, allow) -> {
            if (!rules.isEmpty()) {
                rules.append(' ');
            }
            rules.append(allow ? '+' : '-').append(target);
        });
        return new AclUser(name, enabled, nopass, payloadFlag == null ? List.of() : List.of(payloadFlag), hashes,
                allKeys, keyPatterns, allChannels, channelPatterns, futureCommands, rules.toString(), allowed);
    }
}
