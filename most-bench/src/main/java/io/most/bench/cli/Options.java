package io.most.bench.cli;

import io.most.bench.UsageException;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.ParseResult;

/**
 * The options picocli matched for one command, as the strings given: the commands check the values
 * themselves, so that every message names the option and what is valid.
 */
public final class Options {
    private final ParseResult result;

    Options(ParseResult result) {
        this.result = result;
    }

    /**
     * Parses the options of {@code run} (without the word {@code run}), as {@code reproduce} does for
     * each of its steps.
     *
     * @throws UsageException for an unknown, repeated or value-less option
     */
    public static Options ofRun(java.util.List<String> args) {
        return Commands.parse("run", args);
    }

    /** The command these options belong to. */
    String command() {
        return result.commandSpec().name();
    }

    /** The value of {@code --name}, if given. */
    Optional<String> value(String name) {
        String value = result.matchedOptionValue("--" + name, (String) null);
        if (value != null && value.isBlank()) {
            throw new UsageException("--" + name + " needs a non-empty value");
        }
        return Optional.ofNullable(value);
    }

    /** The value of {@code --name}, or a usage error saying it is required and what it takes. */
    String required(String name, String what) {
        return value(name).orElseThrow(() -> new UsageException("'" + command() + "' needs --" + name + " " + what));
    }

    /** Whether the flag {@code --name} is given. */
    boolean flag(String name) {
        return result.hasMatchedOption("--" + name);
    }

    /** The arguments as given, without the command. */
    List<String> args() {
        List<String> all = result.originalArgs();
        return List.copyOf(all.subList(Math.min(1, all.size()), all.size()));
    }

    /** The positional argument (reproduce's experiment, profile's directory), if given. */
    Optional<String> positional() {
        return Optional.ofNullable(result.matchedPositionalValue(0, (String) null));
    }
}
