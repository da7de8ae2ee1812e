package io.most.bench.cli;

import io.most.bench.Units;
import io.most.bench.driver.RunResult;
import io.most.bench.kv.CacheEngine;
import java.util.function.Function;

/**
 * {@code --restart-window}: the warm-restart measurement of a cache run. After the measured run (whose
 * hit ratio is the steady state) the engine is closed cleanly and reopened on its files, and the load
 * goes on at once, without warm-up, for the window: its hit ratio says how much of the cache came
 * back. The target reads {@code restart_vs_steady} >= 0.9 over a 10 s window.
 */
final class WarmRestart {
    private WarmRestart() {
    }

    /**
     * Reopens {@code engine[0]} (replacing it there, so that the caller closes the reopened one),
     * drives it with {@code drive} and returns {@code steady} with the restart's fields added.
     */
    static RunResult measure(RunResult steady, CacheEngine[] engine, long windowNanos,
                             Function<CacheEngine, RunResult> drive) {
        long start = System.nanoTime();
        CacheEngine old = engine[0];
        engine[0] = null; // closed by reopen, even if the open that follows fails
        engine[0] = old.reopen();
        double reopenSeconds = (System.nanoTime() - start) / 1e9;
        long entries = engine[0].entries();
        RunResult after = drive.apply(engine[0]);
        double steadyRatio = steady.number("hit_ratio");
        double restartRatio = after.number("hit_ratio");
        RunResult out = steady.with("restart_window_s", Units.seconds(windowNanos))
                .with("restart_reopen_s", Units.round(reopenSeconds, 3))
                .with("restart_hit_ratio", restartRatio)
                .with("restart_vs_steady", steadyRatio > 0 ? Units.round(restartRatio / steadyRatio, 4) : Double.NaN)
                .with("restart_get_ops", after.number("get_ops"))
                .with("restart_throughput_ops", after.number("throughput_ops"))
                .with("restart_errors", after.number("measured_errors"));
        return entries >= 0 ? out.with("restart_entries", entries) : out;
    }
}
