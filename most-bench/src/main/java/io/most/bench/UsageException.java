package io.most.bench;

import io.most.bench.cli.Main;

/**
 * A command line that cannot run: an unknown command, workload, hierarchy or policy, or an option
 * value out of range. The message names the option and what is valid; {@link Main} prints it and
 * exits with {@link #EXIT_CODE}.
 */
public final class UsageException extends RuntimeException {
    /** The exit code of every usage error, as in most Unix tools (bash, grep). */
    public static final int EXIT_CODE = 2;
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
