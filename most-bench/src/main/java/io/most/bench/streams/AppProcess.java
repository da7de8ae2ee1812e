package io.most.bench.streams;

import io.most.bench.BenchException;
import io.most.bench.fork.ForkedJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A running {@link StreamsAppMain} JVM: its stdout lines are the protocol ({@code measured},
 * {@code first}, {@code failed ...}), its stderr is passed through to the coordinator's with a prefix.
 */
final class AppProcess implements AutoCloseable {
    private static final String EOF = "\u0000eof";
    private static final ForkedJvm JVM = new ForkedJvm(StreamsAppMain.class.getName());

    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    private AppProcess(Process process) {
        this.process = process;
    }

    /** Starts the application with {@code args}, its heap the settings' {@code heapBytes}. */
    static AppProcess start(AppArgs args, PrintStream err) {
        List<String> command = JVM.command(args.toArgs(), OptionalLong.of(args.settings().heapBytes()));
        try {
            AppProcess app = new AppProcess(new ProcessBuilder(command).start());
            Thread.ofPlatform().daemon().name("streams-app-out").start(() -> read(app.process.getInputStream(), app.lines));
            Thread.ofPlatform().daemon().name("streams-app-err").start(() -> relay(app.process.getErrorStream(), err));
            return app;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the Kafka Streams JVM: " + e.getMessage(), e);
        }
    }

    /**
     * Waits up to {@code millis} for the line {@code expected}.
     *
     * @throws BenchException if the application reports a failure, exits, or the time runs out
     */
    void await(String expected, long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        try {
            while (true) {
                long left = deadline - System.nanoTime();
                String line = left <= 0 ? null : lines.poll(left, TimeUnit.NANOSECONDS);
                if (line == null) {
                    throw new BenchException("the Kafka Streams JVM (pid " + process.pid() + ") did not report '"
                            + expected + "' within " + millis / 1000 + " s");
                }
                if (line.equals(expected)) {
                    return;
                }
                if (line.startsWith("failed ")) {
                    throw new BenchException("the Kafka Streams application failed: " + line.substring(7));
                }
                if (line.equals(EOF)) {
                    throw new BenchException("the Kafka Streams JVM (pid " + process.pid() + ") exited with "
                            + process.waitFor() + " before it reported '" + expected + "'");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchException("interrupted while waiting for the Kafka Streams JVM");
        }
    }

    /** SIGKILL: no shutdown hook, no store close, no commit; returns once the process is gone. */
    void kill9() {
        process.destroyForcibly();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    long pid() {
        return process.pid();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            kill9();
        }
    }

    private static void read(InputStream out, BlockingQueue<String> lines) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(out, StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                lines.add(line);
            }
        } catch (IOException e) {
            // the process is gone: EOF below says so
        }
        lines.add(EOF);
    }

    private static void relay(InputStream childErr, PrintStream err) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(childErr, StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                err.println("  [streams] " + line);
            }
        } catch (IOException e) {
            // the process is gone
        }
    }
}
