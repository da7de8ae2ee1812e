package io.most.it;

import java.util.SplittableRandom;

/**
 * The writer's deterministic schedule: which pages round {@code r} writes (distinct, in order) and
 * which it reads, computed from (seed, r) alone so that the test can recompute any round. Most
 * accesses (80%) go to a hot set of the first {@code hotPages} pages, so some pages are rewritten
 * while still buffered and others go cold and are evicted through every path.
 */
final class WriteSchedule {
    private final long seed;
    private final int pages;
    private final int hotPages;
    private final int meanWrites;

    WriteSchedule(long seed, int pages, int hotPages, int meanWrites) {
        this.seed = seed;
        this.pages = pages;
        this.hotPages = Math.min(hotPages, pages);
        this.meanWrites = meanWrites;
    }

    /** Distinct pages written by round {@code round} (from 1), in the order they are written. */
    int[] writes(int round) {
        SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + round);
        return pick(random, 1 + random.nextInt(2 * meanWrites));
    }

    /** Pages read (and checked) by round {@code round}, after its writes. */
    int[] reads(int round) {
        SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L - round);
        return pick(random, random.nextInt(meanWrites + 1));
    }

    private int[] pick(SplittableRandom random, int count) {
        count = Math.min(count, pages);
        boolean[] taken = new boolean[pages];
        int[] picked = new int[count];
        for (int n = 0; n < count; ) {
            int page = random.nextInt(5) < 4 ? random.nextInt(hotPages) : random.nextInt(pages);
            if (!taken[page]) {
                taken[page] = true;
                picked[n++] = page;
            }
        }
        return picked;
    }
}
