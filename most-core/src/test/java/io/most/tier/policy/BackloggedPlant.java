package io.most.tier.policy;

import java.util.SplittableRandom;

/**
 * A fluid model of the emulated {@code optane-nvme} pair under {@code most-burst}, fitted to the
 * {@code interval_timeline} of {@code java -jar most-bench/target/most-bench.jar run --workload most-burst
 * --hierarchy optane-nvme --policies most,most-paper --intensity 1.3 --size 256m --threads 96 --warmup 30s
 * --duration 60s --seed 42 --repeat 1}, run on 2026-11-24 (MOST's run, with the controller of that day, which
 * did not yet bisect its step). Deterministic:
 * it advances in 1 ms steps of simulated time and draws its noise from a seeded generator.
 *
 * <p>What the trace shows, once each 200 ms EWMA ({@code α = 0.3}) is turned back into the interval's own
 * mean: at the peak the open loop falls behind, so all 96 driver threads are always in a device queue.
 * While the capacity device is not saturated its latency stays at its unloaded 1.65 ms and the
 * performance device's at ~3.4 ms whatever the ratio (0 to ~0.6: no response at all); just past the
 * operating point (~0.6) the queue moves from one device to the other within one interval (ratio 0.8: P
 * 1.0 ms, C 5.9 ms; 0.64 in the next interval: 2.6 / 2.7 ms; 0.48: 3.1 / 1.65 ms). The queue split
 * integrates {@code ratio − r*} (0.1 of ratio moves ~230 requests per interval, the whole queue being
 * 96), so the plant is an integrator with a very high gain near {@code r*} and none away from it, seen
 * one interval after the ratio was set; the operating point drifts up as the backlog drains (0.52 to 0.76
 * within one 4.6 s burst).
 *
 * <p>Fitted: performance device 8 channels of 320 µs (25k/s; unloaded reads 300-550 µs in the trace);
 * capacity device 21 channels of 1.65 ms (12.7k/s); a request goes to the capacity device with
 * probability {@code 0.15 + 0.31 · ratio} (cold data there, and the mirrored share of the hot set:
 * 9 mirrored segments of ~26 hot ones taking 90% of the accesses). At ratio 0 this gives 29.4k/s and
 * P at 3.5 ms, balance at ratio 0.60 with 37.7k/s, as in the trace (29.5k, 3.4 ms; ~0.6, 37-38k).
 */
final class BackloggedPlant {
    private static final double STEP_S = 0.001;
    private static final int STEPS = 200;
    static final double ALPHA = 0.3;

    private final int threads;
    private final double perfChannels;
    private final double perfService;
    private final double capChannels;
    private final double capService;
    private final double coldShare;
    private final double mirroredShare;
    private final double noise;
    private final SplittableRandom random = new SplittableRandom(7);
    /** Offered load in requests per second (open loop). */
    double arrivals;
    private double backlog;
    private double queuedP;
    private double queuedC;
    private double averageP = Double.NaN;
    private double averageC = Double.NaN;
    private double completed;
    private double completedLastInterval;
    private double latencySum;

    BackloggedPlant(double noise) {
        this(96, 8, 320e-6, 21, 1650e-6, 0.15, 0.31, noise);
    }

    BackloggedPlant(int threads, double perfChannels, double perfService, double capChannels, double capService,
                    double coldShare, double mirroredShare, double noise) {
        this.threads = threads;
        this.perfChannels = perfChannels;
        this.perfService = perfService;
        this.capChannels = capChannels;
        this.capService = capService;
        this.coldShare = coldShare;
        this.mirroredShare = mirroredShare;
        this.noise = noise;
    }

    /** One 200 ms interval at {@code ratio}; then {@link #lp()} and {@link #lc()} read the volume's EWMAs. */
    void interval(double ratio) {
        double toCapacity = coldShare + mirroredShare * ratio;
        double sumP = 0;
        double sumC = 0;
        double doneP = 0;
        double doneC = 0;
        double waiting = 0;
        for (int i = 0; i < STEPS; i++) {
            backlog += arrivals * STEP_S;
            double admitted = Math.min(threads - queuedP - queuedC, backlog);
            backlog -= admitted;
            waiting += backlog * STEP_S;
            queuedP += admitted * (1 - toCapacity);
            queuedC += admitted * toCapacity;
            double p = Math.min(queuedP, Math.min(queuedP, perfChannels) / perfService * STEP_S);
            double c = Math.min(queuedC, Math.min(queuedC, capChannels) / capService * STEP_S);
            // Little's law: a request's latency is the queue over the service rate, at least the service time
            sumP += p * perfService * Math.max(1, queuedP / perfChannels);
            sumC += c * capService * Math.max(1, queuedC / capChannels);
            doneP += p;
            doneC += c;
            queuedP -= p;
            queuedC -= c;
        }
        completed += doneP + doneC;
        completedLastInterval = doneP + doneC;
        // requests waiting for a thread wait in the backlog too: the driver's latency counts it, the volume's does not
        latencySum += sumP + sumC + waiting;
        double meanP = (doneP > 0 ? sumP / doneP : perfService) * Math.exp(noise * random.nextGaussian());
        double meanC = (doneC > 0 ? sumC / doneC : capService) * Math.exp(noise * random.nextGaussian());
        averageP = Double.isNaN(averageP) ? meanP : averageP + ALPHA * (meanP - averageP);
        averageC = Double.isNaN(averageC) ? meanC : averageC + ALPHA * (meanC - averageC);
    }

    /** The performance device's latency EWMA, in nanoseconds. */
    double lp() {
        return averageP * 1e9;
    }

    /** The capacity device's latency EWMA, in nanoseconds. */
    double lc() {
        return averageC * 1e9;
    }

    /** Requests completed in the last interval. */
    double completedLastInterval() {
        return completedLastInterval;
    }

    /** Requests completed so far. */
    double completed() {
        return completed;
    }

    /** Mean time a request spent in the system, backlog included (a fluid approximation), in seconds. */
    double meanLatency() {
        return completed == 0 ? 0 : latencySum / completed;
    }
}
