package io.most.bench.cli;

import io.most.bench.UsageException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The options of one command, parsed by hand: {@code --name value}, {@code --name=value} and value-less
 * flags. Unknown options, missing values, repeated options and stray arguments are usage errors that
 * list what the command accepts.
 */
public final class CommandLine {
    private final String command;
    private final Map<String, String> values;
    private final Set<String> flags;

    private CommandLine(String command, Map<String, String> values, Set<String> flags) {
        this.command = command;
        this.values = values;
        this.flags = flags;
    }

    /**
     * Parses {@code args} for {@code command}.
     *
     * @param valueOptions options that take a value, without the leading {@code --}
     * @param flagOptions  options that take none
     */
    public static CommandLine parse(String command, List<String> args, Set<String> valueOptions, Set<String> flagOptions) {
        Map<String, String> values = new HashMap<>();
        Set<String> flags = new LinkedHashSet<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.startsWith("--") || arg.length() == 2) {
                throw new UsageException("unexpected argument '" + arg + "' for '" + command
                        + "': options start with --; valid options: " + valid(valueOptions, flagOptions));
            }
            int eq = arg.indexOf('=');
            String name = arg.substring(2, eq < 0 ? arg.length() : eq);
            if (flagOptions.contains(name)) {
                if (eq >= 0) {
                    throw new UsageException("--" + name + " takes no value");
                }
                if (!flags.add(name)) {
                    throw new UsageException("--" + name + " is given twice");
                }
                continue;
            }
            if (!valueOptions.contains(name)) {
                throw new UsageException("unknown option --" + name + " for '" + command + "'; valid options: "
                        + valid(valueOptions, flagOptions));
            }
            String value;
            if (eq >= 0) {
                value = arg.substring(eq + 1);
            } else if (i + 1 < args.size() && !args.get(i + 1).startsWith("--")) {
                value = args.get(++i);
            } else {
                throw new UsageException("--" + name + " needs a value");
            }
            if (value.isBlank()) {
                throw new UsageException("--" + name + " needs a non-empty value");
            }
            if (values.putIfAbsent(name, value) != null) {
                throw new UsageException("--" + name + " is given twice");
            }
        }
        return new CommandLine(command, values, flags);
    }

    private static String valid(Set<String> valueOptions, Set<String> flagOptions) {
        List<String> all = new ArrayList<>();
        valueOptions.stream().sorted().forEach(o -> all.add("--" + o));
        flagOptions.stream().sorted().forEach(o -> all.add("--" + o));
        return String.join(", ", all);
    }

    /** The command these options belong to. */
    String command() {
        return command;
    }

    /** The value of {@code --name}, if given. */
    public Optional<String> value(String name) {
        return Optional.ofNullable(values.get(name));
    }

    /** The value of {@code --name}, or a usage error saying it is required and what it takes. */
    String required(String name, String what) {
        return value(name).orElseThrow(() -> new UsageException("'" + command + "' needs --" + name + " " + what));
    }

    /** Whether the flag {@code --name} is given. */
    boolean flag(String name) {
        return flags.contains(name);
    }
}
