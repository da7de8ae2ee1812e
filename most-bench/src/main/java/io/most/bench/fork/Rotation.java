package io.most.bench.fork;

import java.util.ArrayList;
import java.util.List;

/**
 * The order of the runs within each round: round 0 runs a, b, c; round 1 b, c, a; round 2 c, a, b.
 * In one JVM the first engine run has the JIT's profiles to itself and the later ones inherit them;
 * across JVMs the machine still drifts (page cache, thermal, neighbours). Rotating spreads both over
 * every engine instead of always favouring the same one.
 */
final class Rotation {
    private Rotation() {
    }

    /** {@code items} rotated left by {@code round} places (modulo their number). */
    public static <T> List<T> round(List<T> items, int round) {
        if (round < 0) {
            throw new IllegalArgumentException("round must be >= 0, got " + round);
        }
        List<T> order = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            order.add(items.get((i + round) % items.size()));
        }
        return order;
    }
}
