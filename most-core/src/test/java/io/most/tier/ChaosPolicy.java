package io.most.tier;

import io.most.tier.policy.PlacementPolicy;

import io.most.tier.policy.PolicyContext;

import io.most.tier.policy.MirroredWrite;

import io.most.tier.policy.SegmentClass;

import io.most.tier.policy.Tier;

import java.util.concurrent.ThreadLocalRandom;

/**
 * A policy that does everything at random — placement, routing (including write-through), mirroring,
 * unmirroring, moving, cleaning — so that every path of the volume runs concurrently with I/O.
 */
final class ChaosPolicy implements PlacementPolicy {
    private final int actionsPerInterval;

    ChaosPolicy(int actionsPerInterval) {
        this.actionsPerInterval = actionsPerInterval;
    }

    @Override
    public String name() {
        return "chaos";
    }

    private static Tier coin() {
        return ThreadLocalRandom.current().nextBoolean() ? Tier.PERFORMANCE : Tier.CAPACITY;
    }

    @Override
    public Tier placeNewSegment(int segment) {
        return coin();
    }

    @Override
    public Tier routeMirroredRead(int segment) {
        return coin();
    }

    @Override
    public MirroredWrite routeMirroredWrite(int segment) {
        int r = ThreadLocalRandom.current().nextInt(5);
        return r == 0 ? MirroredWrite.BOTH : r < 3 ? MirroredWrite.PERFORMANCE : MirroredWrite.CAPACITY;
    }

    @Override
    public void optimize(PolicyContext context) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < actionsPerInterval; i++) {
            int segment = random.nextInt(context.segmentCount());
            switch (context.segmentClass(segment)) {
                case TIERED_PERFORMANCE, TIERED_CAPACITY -> {
                    if (random.nextInt(3) == 0) {
                        context.move(segment, context.segmentClass(segment) == SegmentClass.TIERED_PERFORMANCE
                                ? Tier.CAPACITY : Tier.PERFORMANCE);
                    } else {
                        context.mirror(segment);
                    }
                }
                case MIRRORED -> {
                    if (random.nextInt(3) == 0) {
                        context.unmirror(segment, random.nextBoolean() ? context.preferredCopy(segment) : coin());
                    }
                }
                case UNALLOCATED -> { }
            }
        }
    }

    @Override
    public double cleaningPriority(int segment, PolicyContext context) {
        return ThreadLocalRandom.current().nextInt(2);
    }
}
