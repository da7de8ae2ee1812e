package io.most.tier.policy;


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
 * MOST paper configures it), and a promotion only displaces a segment that is not hot and is clearly
 * colder ({@link Hysteresis}: a margin over smoothed heat and a minimum residency, so that segments of
 * equal heat are not swapped on noise).
 */
public final class HememPolicy extends SingleCopyPolicy {
    private final PlacementMoves moves = new PlacementMoves();

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
        moves.observe(context);
        moves.promote(context, context.hottest(SegmentClass.TIERED_CAPACITY, PlacementMoves.CANDIDATES), true);
    }
}
