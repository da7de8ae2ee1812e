package io.most.bench.cli;

import io.most.errors.MostException;
import io.most.bench.BenchException;
import io.most.bench.UsageException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import picocli.CommandLine;

/**
 * The {@code most-bench} command line: {@code run}, {@code reproduce}, {@code demo}, {@code calibrate},
 * {@code profile} and {@code help}. Exit code 0 on success, 1 when a run fails,
 * {@value UsageException#EXIT_CODE} for a bad command line.
 */
public final class Main {
    private Main() {
    }

    /** Entry point of {@code java -jar most-bench.jar}. */
    public static void main(String[] args) {
        int code = run(args, System.out, System.err);
        System.out.flush();
        System.exit(code);
    }

    /** Runs one command with the given streams and returns its exit code (tests call this). */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            CommandLine.ParseResult parsed;
            try {
                parsed = Commands.commandLine().parseArgs(args);
            } catch (CommandLine.ParameterException e) {
                throw new UsageException(Commands.explain(e));
            }
            if (parsed.isUsageHelpRequested() || parsed.hasSubcommand() && (parsed.subcommand().isUsageHelpRequested()
                    || parsed.subcommand().commandSpec().name().equals("help"))) {
                out.print(Commands.help());
                return 0;
            }
            if (!parsed.hasSubcommand()) {
                err.print(Commands.help());
                return UsageException.EXIT_CODE;
            }
            Options options = new Options(parsed.subcommand());
            return switch (options.command()) {
                case "run" -> StreamsSpec.isStreams(options)
                        ? new StreamsCommand(out, err).execute(StreamsSpec.parse(options))
                        : SharingSpec.isSharing(options)
                        ? new SharingCommand(out, err).execute(SharingSpec.parse(options))
                        : new RunCommand(out, err).execute(RunSpec.parse(options));
                case "reproduce" -> new ReproduceCommand(out, err).execute(options);
                case "demo" -> new DemoCommand(out, err).execute(options);
                case "calibrate" -> new CalibrateCommand(out, err).execute(options);
                case "profile" -> new ProfileCommand(out, err).execute(ProfileCommand.Spec.parse(options));
                default -> throw new IllegalStateException("command without a handler: " + options.command());
            };
        } catch (UsageException e) {
            err.println("most-bench: " + e.getMessage());
            err.println("run 'java -jar most-bench.jar help' for usage");
            return UsageException.EXIT_CODE;
        } catch (BenchException | MostException | UncheckedIOException e) {
            err.println("most-bench: error: " + e.getMessage());
            return 1;
        } catch (RuntimeException e) {
            // not an expected failure mode: the stack trace is what a bug report needs
            err.println("most-bench: internal error: " + e);
            e.printStackTrace(err);
            return 1;
        }
    }
}
