package io.most.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A child JVM for crash tests: runs a {@code main} class of this test class path in a separate
 * process, collects what it prints, and kills it with SIGKILL at a moment the test chooses, so that
 * nothing in the child (no finally block, no shutdown hook, no close) runs after the kill.
 *
 * <p>The child uses the same {@code java} binary and class path as the test and runs with
 * {@code --enable-native-access=ALL-UNNAMED}. A child talks to the test through its standard output,
 * one line per event; the test reads the lines with {@link #awaitLine} or {@link #lines()}.
 *
 * <p><b>Lines.</b> A line counts only once its terminating {@code '\n'} has arrived, so a line that
 * the kill cut short is never mistaken for a complete one: it is kept apart in
 * {@link #partialLastLine()}. A child that reports progress should write each line with a single
 * {@code write} of at most 4 KiB (pipe writes up to {@code PIPE_BUF} are atomic), for example through
 * {@link #lineWriter()}. Every line is kept for the life of this object: children of crash tests print
 * a few thousand lines, not millions.
 *
 * <p><b>Killing.</b> Kills are SIGKILL sent through {@link ProcessHandle#destroyForcibly()}, which,
 * unlike {@link Process#destroyForcibly()}, leaves the output pipes open so that nothing the child
 * wrote is lost. {@link #kill()} kills now; {@link #killAtLine(Predicate)} arms a kill that the
 * reader thread sends the moment a matching line arrives (a chosen point of the child's protocol,
 * with no extra scheduling delay on the test's side), or sends at once if that line is already in.
 * Both leave the full transcript readable afterwards: every line the child wrote before it died is in
 * {@link #lines()}.
 *
 * <p><b>Orphans.</b> A child that calls {@link #exitWhenParentDies()} halts when the test JVM dies,
 * because its standard input (a pipe held open by this object) then reaches end of file.
 * {@link #close()} kills a child that is still running.
 */
public final class ForkedJvm implements AutoCloseable {
    private static final int STDERR_TAIL_LINES = 40;

    private final String description;
    private final Process process;
    private final Thread stdoutReader;
    private final Thread stderrReader;

    // Guarded by "this": the transcript, the read cursor of awaitLine and the kill trigger.
    private final List<String> lines = new ArrayList<>();
    private int cursor;
    private boolean stdoutEnded;
    private String partialLastLine;
    private Predicate<String> killTrigger;
    private String killedAtLine;

    private final Deque<String> stderrTail = new ArrayDeque<>();

    private ForkedJvm(String description, Process process) {
        this.description = description;
        this.process = process;
        this.stdoutReader = Thread.ofPlatform().daemon().name("forked-jvm-stdout-" + process.pid())
                .start(this::readStdout);
        this.stderrReader = Thread.ofPlatform().daemon().name("forked-jvm-stderr-" + process.pid())
                .start(this::readStderr);
    }

    /** Starts {@code mainClass} with {@code args} in a child JVM with default JVM options. */
    public static ForkedJvm start(Class<?> mainClass, String... args) {
        return start(List.of(), mainClass, List.of(args));
    }

    /**
     * Starts {@code mainClass} with {@code args} in a child JVM.
     *
     * @param jvmOptions options placed before the class path, e.g. {@code -Xmx64m}; the child always
     *                   gets {@code --enable-native-access=ALL-UNNAMED}
     * @throws UncheckedIOException if the process cannot be started
     */
    public static ForkedJvm start(List<String> jvmOptions, Class<?> mainClass, List<String> args) {
        String java = ProcessHandle.current().info().command()
                .orElseGet(() -> Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>();
        command.add(java);
        command.add("--enable-native-access=ALL-UNNAMED");
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(args);
        try {
            Process process = new ProcessBuilder(command).start();
            return new ForkedJvm(mainClass.getSimpleName() + " " + String.join(" ", args), process);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a child JVM: " + command, e);
        }
    }

    /** The child's process id. */
    public long pid() {
        return process.pid();
    }

    /** Whether the child is still running. */
    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Waits for the next line, after those returned by earlier calls, that {@code matcher} accepts,
     * and returns it; lines it skips stay in {@link #lines()}.
     *
     * @throws AssertionError if the child's output ends or {@code timeout} passes first; the message
     *                        has the exit status and the tail of the child's standard error
     */
    public String awaitLine(Predicate<String> matcher, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean ended;
        synchronized (this) {
            while (true) {
                while (cursor < lines.size()) {
                    String line = lines.get(cursor++);
                    if (matcher.test(line)) {
                        return line;
                    }
                }
                ended = stdoutEnded;
                long left = deadline - System.nanoTime();
                if (ended || left <= 0) {
                    break;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted while waiting for child " + this, e);
                }
            }
        }
        throw new AssertionError("child " + this + (ended ? " ended its output without the awaited line"
                : " printed no awaited line within " + timeout) + diagnostics());
    }

    /** Every complete line the child has printed so far, in order. */
    public synchronized List<String> lines() {
        return List.copyOf(lines);
    }

    /** The unterminated end of the output, present only if the child died in the middle of a line. */
    public synchronized Optional<String> partialLastLine() {
        return Optional.ofNullable(partialLastLine);
    }

    /**
     * Arms a SIGKILL at the first line that {@code trigger} accepts among those {@link #awaitLine} has
     * not returned yet: sent now if such a line has already arrived, else by the reader thread the moment
     * it arrives. Follow it with {@link #awaitExit(Duration)}; {@link #killedAtLine()} then tells
     * whether the trigger fired.
     *
     * <p>Lines that arrived while the test was not looking count: the reader does not wait for the test
     * thread, so on a busy machine the lines after the one {@code awaitLine} returned may already be in
     * before this call (a trigger armed only for later lines then missed its line, and the child ran
     * on unkilled).
     */
    public void killAtLine(Predicate<String> trigger) {
        String firedAt = null;
        synchronized (this) {
            for (int i = cursor; i < lines.size() && firedAt == null; i++) {
                if (trigger.test(lines.get(i))) {
                    firedAt = lines.get(i);
                }
            }
            if (firedAt == null) {
                killTrigger = trigger;
            } else {
                killedAtLine = firedAt;
            }
        }
        if (firedAt != null) {
            sigkill();
        }
    }

    /** The line that fired the trigger of {@link #killAtLine}, if it fired. */
    public synchronized Optional<String> killedAtLine() {
        return Optional.ofNullable(killedAtLine);
    }

    /**
     * Kills the child with SIGKILL (if it is still running), waits for it to end and for its output to
     * be fully read, and returns its exit status (137 for a SIGKILL on Linux).
     */
    public int kill() {
        sigkill();
        return awaitExit(Duration.ofSeconds(30));
    }

    /**
     * Waits for the child to end by itself and for its output to be fully read, and returns its exit
     * status.
     *
     * @throws AssertionError if it is still running after {@code timeout} (it is then killed)
     */
    public int awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                sigkill();
                process.waitFor();
                joinReaders();
                throw new AssertionError("child " + this + " did not end within " + timeout + "; killed it" + diagnostics());
            }
            joinReaders();
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for child " + this, e);
        }
    }

    /** The last lines the child wrote to standard error (JVM warnings, stack traces). */
    public String stderrTail() {
        synchronized (stderrTail) {
            return String.join("\n", stderrTail);
        }
    }

    /** Kills the child if it is still running. */
    @Override
    public void close() {
        if (process.isAlive()) {
            kill();
        }
    }

    @Override
    public String toString() {
        return "[pid " + process.pid() + ": " + description + "]";
    }

    /**
     * For use in a child's {@code main}: halts the child JVM when the test JVM that started it dies,
     * so that no orphan keeps writing. Consumes standard input.
     */
    public static void exitWhenParentDies() {
        Thread.ofPlatform().daemon().name("exit-when-parent-dies").start(() -> {
            try {
                while (System.in.read() >= 0) {
                    // the parent never writes; end of file means it is gone
                }
            } catch (IOException ignored) {
                // treat like end of file
            }
            Runtime.getRuntime().halt(3);
        });
    }

    /**
     * For use in a child's {@code main}: a writer of protocol lines to standard output, each line
     * written with one {@code write} call and no buffering, so that a line the parent has read was
     * fully written before the child went on.
     */
    public static LineWriter lineWriter() {
        return new LineWriter();
    }

    /** Writes whole lines (or several at once) to standard output with one system call each. */
    public static final class LineWriter {
        private final java.io.FileOutputStream out = new java.io.FileOutputStream(java.io.FileDescriptor.out);

        private LineWriter() {
        }

        /** Writes {@code text} followed by a newline; {@code text} may itself hold several lines. */
        public void println(String text) {
            try {
                out.write((text + "\n").getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write to standard output", e);
            }
        }
    }

    /** Exit status and standard error tail for failure messages; waits briefly for a dying child. */
    private String diagnostics() {
        try {
            if (process.waitFor(2, TimeUnit.SECONDS)) {
                stderrReader.join(Duration.ofSeconds(2));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        String status = process.isAlive() ? "still running" : "exit status " + process.exitValue();
        return " (" + status + "; standard error tail:\n" + stderrTail() + ")";
    }

    /**
     * Sends SIGKILL through the {@link ProcessHandle}. Not {@link Process#destroyForcibly()}: on Linux it
     * also closes this side of the child's output pipes, so lines the child wrote just before it died
     * and that were not read yet would be lost from the transcript.
     */
    private void sigkill() {
        process.toHandle().destroyForcibly();
    }

    private void joinReaders() throws InterruptedException {
        stdoutReader.join();
        stderrReader.join();
    }

    private void readStdout() {
        ByteArrayOutputStream line = new ByteArrayOutputStream(128);
        try (InputStream in = process.getInputStream()) {
            byte[] buffer = new byte[8192];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                for (int i = 0; i < n; i++) {
                    if (buffer[i] == '\n') {
                        addLine(line.toString(StandardCharsets.UTF_8));
                        line.reset();
                    } else {
                        line.write(buffer[i]);
                    }
                }
            }
        } catch (IOException e) {
            // the stream was closed under us; treat as end of output
        } finally {
            synchronized (this) {
                if (line.size() > 0) {
                    partialLastLine = line.toString(StandardCharsets.UTF_8);
                }
                stdoutEnded = true;
                notifyAll();
            }
        }
    }

    private void addLine(String text) {
        String line = text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
        boolean killNow;
        synchronized (this) {
            lines.add(line);
            killNow = killTrigger != null && killTrigger.test(line);
            if (killNow) {
                killTrigger = null;
                killedAtLine = line;
            }
            notifyAll();
        }
        if (killNow) {
            sigkill();
        }
    }

    private void readStderr() {
        try (var reader = process.errorReader(StandardCharsets.UTF_8)) {
            String line;
            while ((line = reader.readLine()) != null) {
                synchronized (stderrTail) {
                    if (stderrTail.size() == STDERR_TAIL_LINES) {
                        stderrTail.removeFirst();
                    }
                    stderrTail.addLast(line);
                }
            }
        } catch (IOException e) {
            // end of output
        }
    }
}
