package io.most.buffer;

import io.most.MigrationPolicy;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * Spitfire's adaptive data migration (paper section 4): simulated annealing over the policy
 * {@code <Dr, Dw, Nr, Nw>}. Each epoch runs one candidate and measures its cost, the time per page
 * access in microseconds (1 / throughput), plus {@code writeCostWeight} x device page writes per
 * access if wear matters. A worse candidate is accepted with probability {@code exp(-delta / T)};
 * T starts at 800 and is multiplied by 0.9 per epoch until it falls below 8e-5 (the paper's
 * settings), after which the best policy seen is kept.
 *
 * <p>Candidates move one step along {@link #LEVELS} in one of the four probabilities, so the search
 * covers the values the paper evaluates (0, 0.01, 0.1, 0.2, 1) and a few between.
 */
final class AnnealingTuner extends BackgroundTask {
    static final double INITIAL_TEMPERATURE = 800;
    static final double COOLING = 0.9;
    static final double FINAL_TEMPERATURE = 8e-5;
    static final double[] LEVELS = {0, 0.01, 0.05, 0.1, 0.2, 0.5, 1};

    private final SpitfireBufferManager store;
    private final long epochNanos;
    private final double writeCostWeight;

    AnnealingTuner(SpitfireBufferManager store, Duration epoch, double writeCostWeight) {
        super("most-annealer");
        this.store = store;
        this.epochNanos = epoch.toNanos();
        this.writeCostWeight = writeCostWeight;
    }

    @Override
    void runLoop() {
        MigrationPolicy current = plain(store.policy());
        store.setPolicy(current);
        double currentCost = measure();
        MigrationPolicy best = current;
        double bestCost = currentCost;
        for (double t = INITIAL_TEMPERATURE; running() && t > FINAL_TEMPERATURE; t *= COOLING) {
            MigrationPolicy candidate = neighbour(current);
            store.setPolicy(candidate);
            double cost = measure();
            if (!running()) {
                break;
            }
            if (cost <= currentCost || ThreadLocalRandom.current().nextDouble() < Math.exp(-(cost - currentCost) / t)) {
                current = candidate;
                currentCost = cost;
            }
            if (cost < bestCost) {
                best = candidate;
                bestCost = cost;
            }
            store.setPolicy(current);
        }
        store.setPolicy(best);
    }

    /** Runs one epoch under the policy in force and returns its cost; infinite if nothing ran. */
    private double measure() {
        BufferCounters c = store.counters();
        long accesses = c.accesses();
        long writes = c.deviceWrites();
        long start = System.nanoTime();
        long deadline = start + epochNanos;
        while (running() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(Math.min(deadline - System.nanoTime(), 100_000_000));
        }
        long ops = c.accesses() - accesses;
        if (ops <= 0) {
            return Double.POSITIVE_INFINITY;
        }
        double microsPerOp = (System.nanoTime() - start) / 1e3 / ops;
        return microsPerOp + writeCostWeight * (c.deviceWrites() - writes) / ops;
    }

    static MigrationPolicy neighbour(MigrationPolicy p) {
        double[] v = {p.dr(), p.dw(), p.nr(), p.nw()};
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int which = random.nextInt(4);
        int level = nearestLevel(v[which]);
        int next = level == 0 ? 1 : level == LEVELS.length - 1 ? level - 1 : level + (random.nextBoolean() ? 1 : -1);
        v[which] = LEVELS[next];
        return MigrationPolicy.of(v[0], v[1], v[2], v[3]);
    }

    private static int nearestLevel(double value) {
        int best = 0;
        for (int i = 1; i < LEVELS.length; i++) {
            if (Math.abs(LEVELS[i] - value) < Math.abs(LEVELS[best] - value)) {
                best = i;
            }
        }
        return best;
    }

    /** The tuner searches plain probabilities; HyMEM's queue becomes Nw = 1. */
    private static MigrationPolicy plain(MigrationPolicy p) {
        return MigrationPolicy.of(p.dr(), p.dw(), p.nr(), p.nw());
    }
}
