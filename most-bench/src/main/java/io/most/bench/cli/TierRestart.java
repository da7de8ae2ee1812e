package io.most.bench.cli;

import io.most.bench.Units;
import io.most.bench.driver.LoadDriver;
import io.most.bench.driver.LoadShape;
import io.most.bench.driver.Progress;
import io.most.bench.driver.RunResult;
import io.most.bench.hierarchy.OpenHierarchy;
import io.most.bench.policy.Policy;
import io.most.bench.workload.TierWorkload;
import io.most.bench.workload.Workload;
import io.most.tier.TierStats;
import io.most.tier.TieredVolume;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code --restart-window} for the tier workloads: the warm restart against a cold start (issue 17). After
 * the measured run (the steady state) the volume is closed cleanly and reopened on its devices, and the
 * workload goes on at once, without warm-up, for the window; then a fresh volume gets the same data by the
 * workload's fill and is driven the same way. Both report their throughput per second
 * ({@code restart_timeline}, {@code cold_timeline}) and the ratios of their means. The reopened volume's
 * placement is reported next to the closed one's ({@code restart_placement_at_close},
 * {@code restart_placement_at_reopen}: per level {@code [tiered on performance, tiered on capacity,
 * mirrored]} segments), so a restart that lost its mirrored set shows.
 *
 * <p>As {@link WarmRestart} for caches, the load restarts at once; unlike it the open loop starts a new
 * schedule in each window, so neither window inherits the steady run's backlog.
 */
final class TierRestart {
    /** Share of the steady throughput a second must reach to count as back at it. */
    static final double STEADY_SHARE = 0.9;
    /** The early part of the window compared on its own: where a warm start should lead most. */
    static final int FIRST_SECONDS = 5;
    private static final long SECOND = 1_000_000_000L;

    private TierRestart() {
    }

    /**
     * The run's context: {@code policy} built {@code target} on {@code open}; the workload ran with
     * {@code setup} and {@code shape}.
     */
    record Run(Policy<TieredVolume> policy, Policy.Target<TieredVolume> target, OpenHierarchy open,
               Policy.Settings settings, TierWorkload workload, Workload.Setup setup, LoadShape shape,
               Progress progress, String label) {
    }

    /**
     * Reopens {@code run}'s volume and measures it over {@code windowNanos}, then a cold volume, and returns
     * {@code steady} with their fields added. Releases {@code run.target()} (closing it again is harmless).
     */
    static RunResult measure(RunResult steady, Run run, long windowNanos) {
        LoadShape window = new LoadShape(run.shape().threads(), 0, windowNanos, run.shape().rate());
        TieredVolume closed = run.target().target();
        long start = System.nanoTime();
        TieredVolume reopened = run.target().reopened();
        double reopenSeconds = (System.nanoTime() - start) / 1e9;
        List<List<Long>> atClose = placement(closed); // read after the close: nothing moves any more
        List<List<Long>> atReopen = placement(reopened);
        List<Map<String, Object>> restart;
        try {
            restart = drive(reopened, run.workload().resume(reopened, run.setup()), window, run,
                    run.label() + " after restart");
        } finally {
            run.target().close(); // frees its devices before the cold volume takes as much again
        }
        List<Map<String, Object>> cold;
        double fillSeconds;
        try (Policy.Target<TieredVolume> fresh = run.policy().attach(run.open(), run.settings())) {
            long fill = System.nanoTime();
            Workload.Session session = run.workload().start(fresh.target(), run.setup());
            fillSeconds = (System.nanoTime() - fill) / 1e9;
            cold = drive(fresh.target(), session, window, run, run.label() + " cold start");
        }
        double steadyOps = RunCommand.servedOps(steady);
        double restartOps = mean(restart, Integer.MAX_VALUE);
        double coldOps = mean(cold, Integer.MAX_VALUE);
        return steady.with("restart_window_s", Units.seconds(windowNanos))
                .with("restart_reopen_s", Units.round(reopenSeconds, 3))
                .with("restart_placement_at_close", atClose)
                .with("restart_placement_at_reopen", atReopen)
                .with("restart_ops_s", Units.round(restartOps, 1))
                .with("cold_fill_s", Units.round(fillSeconds, 3))
                .with("cold_ops_s", Units.round(coldOps, 1))
                .with("restart_vs_cold", ratio(restartOps, coldOps))
                .with("restart_vs_cold_first_" + FIRST_SECONDS + "s",
                        ratio(mean(restart, FIRST_SECONDS), mean(cold, FIRST_SECONDS)))
                .with("restart_vs_steady", ratio(restartOps, steadyOps))
                .with("restart_s_to_steady", secondsTo(restart, STEADY_SHARE * steadyOps))
                .with("cold_s_to_steady", secondsTo(cold, STEADY_SHARE * steadyOps))
                .with("restart_timeline", restart)
                .with("cold_timeline", cold);
    }

    /** Per level of {@code volume}, top first: {@code [tiered on performance, tiered on capacity, mirrored]}. */
    static List<List<Long>> placement(TieredVolume volume) {
        List<List<Long>> levels = new ArrayList<>();
        for (TieredVolume level : volume.levels()) {
            TierStats s = level.tierStats();
            levels.add(List.of(s.tieredPerformanceSegments(), s.tieredCapacitySegments(), s.mirroredSegments()));
        }
        return List.copyOf(levels);
    }

    /**
     * Drives {@code session} on {@code volume} for {@code shape} and returns one sample per whole second
     * since the drive began: {@code t_s} (the second's end), {@code ops_s} (operations completed in it), the
     * top level's {@code offload_ratio} and {@code mirrored_segments} at its end.
     */
    private static List<Map<String, Object>> drive(TieredVolume volume, Workload.Session session, LoadShape shape,
                                                   Run run, String label) {
        LongAdder completed = new LongAdder();
        List<Map<String, Object>> seconds = new ArrayList<>();
        long start = System.nanoTime();
        Thread sampler = Thread.ofPlatform().daemon().name("restart-sampler").start(() -> {
            long last = 0;
            for (int k = 1; ; k++) {
                long due = start + k * SECOND;
                long wait;
                while ((wait = due - System.nanoTime()) > 0) {
                    try {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    } catch (InterruptedException e) {
                        return; // the window is over; a partial second is not a sample
                    }
                }
                long ops = completed.sum();
                TierStats s = volume.tierStats();
                Map<String, Object> sample = new LinkedHashMap<>();
                sample.put("t_s", k);
                sample.put("ops_s", ops - last);
                sample.put("offload_ratio", Units.round(s.offloadRatio(), 3));
                sample.put("mirrored_segments", s.mirroredSegments());
                synchronized (seconds) {
                    seconds.add(sample);
                }
                last = ops;
            }
        });
        try {
            new LoadDriver(shape, run.progress()).drive(counting(session, completed), label);
        } finally {
            sampler.interrupt();
            joinQuietly(sampler);
            session.report(new HashMap<>()); // stops the session's own sampler; its fields are not needed
        }
        synchronized (seconds) {
            return List.copyOf(seconds);
        }
    }

    /** {@code session}, counting each operation that completed without an error into {@code completed}. */
    private static Workload.Session counting(Workload.Session session, LongAdder completed) {
        return new Workload.Session() {
            @Override
            public Workload.Client newClient(int thread) {
                Workload.Client client = session.newClient(thread);
                return new Workload.Client() {
                    @Override
                    public void next() {
                        client.next();
                        completed.increment();
                    }

                    @Override
                    public void close() {
                        client.close();
                    }
                };
            }

            @Override
            public double rateFactor(long elapsedNanos, long totalNanos) {
                return session.rateFactor(elapsedNanos, totalNanos);
            }

            @Override
            public void beginMeasurement() {
                session.beginMeasurement();
            }

            @Override
            public void report(Map<String, Object> fields) {
                session.report(fields);
            }
        };
    }

    private static void joinQuietly(Thread thread) {
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Mean operations per second over the first {@code seconds} samples (all, if fewer); NaN for none. */
    static double mean(List<Map<String, Object>> timeline, int seconds) {
        int n = Math.min(seconds, timeline.size());
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += (Long) timeline.get(i).get("ops_s");
        }
        return n == 0 ? Double.NaN : (double) sum / n;
    }

    /** The first second whose throughput reached {@code ops}, or NaN if none did. */
    static double secondsTo(List<Map<String, Object>> timeline, double ops) {
        for (Map<String, Object> sample : timeline) {
            if ((Long) sample.get("ops_s") >= ops) {
                return ((Integer) sample.get("t_s")).doubleValue();
            }
        }
        return Double.NaN;
    }

    private static double ratio(double a, double b) {
        return b > 0 ? Units.round(a / b, 4) : Double.NaN;
    }
}
