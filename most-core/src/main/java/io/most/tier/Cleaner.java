package io.most.tier;

import io.most.tier.policy.PlacementPolicy;

import io.most.tier.policy.PolicyContext;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Selective cleaning (MOST paper 3.2.4): once per optimizer interval, re-mirror the single-valid
 * subpages of the mirrored segments the policy ranks highest (for MOST: those with a long rewrite
 * distance, which are unlikely to be overwritten soon), within the migration budget. The copying
 * itself is the {@link Migrator}'s.
 */
final class Cleaner {
    private final SegmentTable table;
    private final Migrator migrator;
    private final RateLimiter limiter;
    private final int subpageSize;

    private record Candidate(int segment, double priority) {
    }

    Cleaner(SegmentTable table, Migrator migrator, RateLimiter limiter, int subpageSize) {
        this.table = table;
        this.migrator = migrator;
        this.limiter = limiter;
        this.subpageSize = subpageSize;
    }

    /** Cleans the highest-priority segments until the budget or the candidates run out. */
    void run(PlacementPolicy policy, PolicyContext context) {
        List<Candidate> candidates = new ArrayList<>();
        for (int s = 0; s < table.size(); s++) {
            MirrorState m = table.mirror(s);
            if (m != null && m.invalidCount() > 0) {
                double priority = policy.cleaningPriority(s, context);
                if (priority > 0) {
                    candidates.add(new Candidate(s, priority));
                }
            }
        }
        candidates.sort(Comparator.comparingDouble(Candidate::priority).reversed());
        for (Candidate c : candidates) {
            long budget = limiter.available();
            if (budget < subpageSize) {
                return;
            }
            migrator.clean(c.segment(), budget);
        }
    }
}
