package io.most.it;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * Runs a check that calls into a store on a separate daemon thread, so that a store that never
 * returns (a livelock in a read, say) fails the test with the stuck thread's stack and what it was
 * doing, instead of hanging the build. The limit is a liveness guard far above any expected duration,
 * not a performance threshold. A thread that is stuck for good is left spinning (it is a daemon).
 */
final class Liveness {
    /**
     * Generous: the checks take about a second; on a loaded 2-core machine, a few. A soak run that
     * expects livelocks may lower it with {@code -Dmost.crash.livenessSeconds=<s>}.
     */
    static final Duration LIMIT = Duration.ofSeconds(Long.getLong("most.crash.livenessSeconds", 120));

    private Liveness() {
    }

    /** Runs {@code body}; {@code doing} is updated by it to say what it is doing now. */
    static <T> T call(String where, AtomicReference<String> doing, Callable<T> body) {
        return call(where, LIMIT, doing, body);
    }

    /** {@link #call(String, AtomicReference, Callable)} with another limit. */
    static <T> T call(String where, Duration limit, AtomicReference<String> doing, Callable<T> body) {
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread thread = Thread.ofPlatform().daemon().name("store-check").start(() -> {
            try {
                outcome.set(new Object[] {body.call()});
            } catch (Throwable t) {
                outcome.set(t);
            }
        });
        try {
            thread.join(limit);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(where + " interrupted", e);
        }
        Object result = outcome.get();
        if (result == null) {
            String stack = Arrays.stream(thread.getStackTrace()).limit(25).map(e -> "    at " + e)
                    .collect(Collectors.joining("\n"));
            fail(where + " the store did not return within " + limit + " while " + doing.get()
                    + " (livelock or deadlock; the thread is left running). Its stack:\n" + stack);
        }
        if (result instanceof Error e) {
            throw e;
        }
        if (result instanceof RuntimeException e) {
            throw e;
        }
        if (result instanceof Throwable t) {
            throw new AssertionError(where + " check failed", t);
        }
        @SuppressWarnings("unchecked")
        T value = (T) ((Object[]) result)[0];
        return value;
    }
}
