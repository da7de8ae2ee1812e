package io.most.bench.driver;

import java.io.Console;
import java.io.PrintStream;

/**
 * The live progress line on stderr, rewritten in place with {@code \r}. Shown only on an interactive
 * terminal (or when {@code --progress} asks for it), so logs and redirected output stay clean;
 * results never go to stderr, so it cannot garble JSON.
 */
public final class Progress {
    private final PrintStream err;
    private final boolean enabled;
    private int shownLength;

    Progress(PrintStream err, boolean enabled) {
        this.err = err;
        this.enabled = enabled;
    }

    /** A progress line on {@code err} if {@code forced} or the JVM has an interactive console. */
    public static Progress forTerminal(PrintStream err, boolean forced) {
        return new Progress(err, shown(forced));
    }

    /**
     * Whether a progress line shows: when {@code forced} or on an interactive console. A forked run's
     * stderr is a pipe to its parent, so the parent passes {@code --progress} on when this is true.
     */
    public static boolean shown(boolean forced) {
        Console console = System.console();
        return forced || (console != null && console.isTerminal());
    }

    /** A progress line that never prints (tests, nested runs). */
    static Progress off(PrintStream err) {
        return new Progress(err, false);
    }

    boolean enabled() {
        return enabled;
    }

    /** Replaces the line with {@code text}. */
    synchronized void show(String text) {
        if (!enabled) {
            return;
        }
        StringBuilder line = new StringBuilder("\r").append(text);
        // blank out the tail of a longer previous line
        line.repeat(' ', Math.max(0, shownLength - text.length()));
        shownLength = text.length();
        err.print(line);
        err.flush();
    }

    /** Erases the line so the next output starts at column 0 of a clean line. */
    synchronized void clear() {
        if (!enabled || shownLength == 0) {
            return;
        }
        err.print("\r" + " ".repeat(shownLength) + "\r");
        err.flush();
        shownLength = 0;
    }
}
