package io.most.tier;

/**
 * Classic hotness tiering after HeMem (Raybuck et al., SOSP'21; MOST paper 2 and 4, "HeMem"): new
 * segments go to the performance device while it has room; every interval, hot segments of the
 * capacity device (read or write heat at the volume's hot threshold) are promoted, hottest first,
 * and when the performance device is full the coldest non-hot performance segment is demoted to make
 * room. Nothing is mirrored, so once the performance device saturates the capacity device's bandwidth
 * stays unused — the behaviour the MOST paper measures.
 *
 * <p>Uses the volume's shared hotness counters (HeMem's 8/18 thresholds with cooling), migrator and
 * budget. Simplification: HeMem's 10 ms quantum is the volume's optimizer interval (200 ms, as the
 * MOST paper configures it), and a promotion only displaces a segment that is not hot and is colder.
 */
public final class HememPolicy extends SingleCopyPolicy {
    private static final int CANDIDATES = 64;

    @Override
    public String name() {
        return "hemem";
    }

    @Override
    public Tier placeNewSegment(int segment) {
        return Tier.PERFORMANCE;
    }

    @Override
    public void optimize(PolicyContext context) {
        promote(context, context.hottest(SegmentClass.TIERED_CAPACITY, CANDIDATES), true);
    }

    /**
     * Moves {@code candidates} (hottest first) to the performance device, demoting the coldest
     * performance segments for room when one is colder. Shared with {@link ColloidPolicy} and BATMAN.
     *
     * @param hotOnly stop at the first candidate that is not hot
     * @return how many were promoted
     */
    static int promote(PolicyContext context, int[] candidates, boolean hotOnly) {
        int[] victims = null;
        int v = 0;
        int promoted = 0;
        for (int segment : candidates) {
            if (hotOnly && !context.isHot(segment)) {
                break;
            }
            if (context.freeSlots(Tier.PERFORMANCE) == 0) {
                if (victims == null) {
                    victims = context.coldest(SegmentClass.TIERED_PERFORMANCE, candidates.length);
                }
                if (v >= victims.length) {
                    break;
                }
                int cold = victims[v++];
                if ((hotOnly && context.isHot(cold)) || context.heat(cold) >= context.heat(segment)
                        || !context.move(cold, Tier.CAPACITY)) {
                    break;
                }
            }
            if (!context.move(segment, Tier.PERFORMANCE)) {
                break;
            }
            promoted++;
        }
        return promoted;
    }
}
