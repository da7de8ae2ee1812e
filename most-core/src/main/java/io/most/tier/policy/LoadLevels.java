package io.most.tier.policy;

/**
 * The load levels an {@link OffloadController} has run at, each with the ratio it operated at and the
 * plant gain it measured there, so that a return to a level starts from its operating point instead of
 * searching for it again: bursty load alternates between a few levels, and at each the operating point
 * and the latencies' response to the ratio differ (gain scheduling, learned online).
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
        int slot = nearest(level.served());
        if (slot < 0) {
            slot = 0;
            for (int i = 1; i < CAPACITY; i++) {
                if (written[i] < written[slot]) { // an empty slot was never written: the oldest
                    slot = i;
                }
            }
        }
        levels[slot] = level;
        written[slot] = ++clock;
    }

    /** The kept level nearest to {@code served} requests per interval, if within the matching factor; else null. */
    Level near(double served) {
        int slot = nearest(served);
        return slot < 0 ? null : levels[slot];
    }

    private int nearest(double served) {
        int best = -1;
        double bestDistance = Math.log(OffloadController.LOAD_STEP);
        for (int i = 0; i < CAPACITY; i++) {
            if (levels[i] != null) {
                double distance = Math.abs(Math.log(levels[i].served() / served));
                if (distance < bestDistance) {
                    best = i;
                    bestDistance = distance;
                }
            }
        }
        return best;
    }
}
