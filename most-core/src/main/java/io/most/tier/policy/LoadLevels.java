package io.most.tier.policy;

/**
 * The load levels an {@link OffloadController} has run at, each with the ratio it settled at and the
 * plant gain it measured there, so that a return to a level starts from its operating point instead of
 * searching for it again: bursty load alternates between a few levels, and at each the ratio's
 * operating point and the latencies' response to it differ (gain scheduling, learned online).
 *
 * <p>A level is the requests served per interval. The {@value #CAPACITY} most recently left levels are
 * kept; a level within a factor {@link OffloadController#LOAD_STEP} of a kept one replaces it. Not
 * thread-safe: the controller's thread only.
 */
final class LoadLevels {
    static final int CAPACITY = 4;

    /**
     * One load level.
     *
     * @param served requests served per interval at the level (averaged over it)
     * @param ratio  the offload ratio averaged over its last intervals
     * @param gain   the plant gain estimated there
     */
    record Level(double served, double ratio, double gain) {
    }

    private final Level[] levels = new Level[CAPACITY];
    /** When each entry was written, for replacing the oldest. */
    private final long[] written = new long[CAPACITY];
    private long clock;

    /** Keeps {@code level}, replacing a kept level within the matching factor of it, or else the oldest. */
    void remember(Level level) {
        int slot = -1;
        for (int i = 0; i < CAPACITY && slot < 0; i++) {
            if (levels[i] != null && distance(levels[i].served(), level.served()) < Math.log(OffloadController.LOAD_STEP)) {
                slot = i;
            }
        }
        if (slot < 0) {
            slot = 0;
            for (int i = 1; i < CAPACITY; i++) {
                if (written[i] < written[slot]) {
                    slot = i;
                }
            }
        }
        levels[slot] = level;
        written[slot] = ++clock;
    }

    /**
     * The kept level to start from after the load stepped from level {@code from} to a first measurement
     * of {@code to} (requests per interval), or null: the one nearest to {@code to} among those a factor
     * {@link OffloadController#LOAD_STEP} or more beyond {@code from} in the step's direction, so that the
     * level just left never matches however little of the new level the first measurement saw, and
     * within that factor of {@code to}.
     */
    Level afterStep(double from, double to) {
        Level best = null;
        double bestDistance = Math.log(OffloadController.LOAD_STEP);
        for (Level level : levels) {
            if (level == null) {
                continue;
            }
            boolean beyond = to > from ? level.served() >= from * OffloadController.LOAD_STEP
                    : level.served() <= from / OffloadController.LOAD_STEP;
            double distance = distance(level.served(), to);
            if (beyond && distance < bestDistance) {
                best = level;
                bestDistance = distance;
            }
        }
        return best;
    }

    private static double distance(double a, double b) {
        return Math.abs(Math.log(a / b));
    }
}
