package io.most.tier;

import io.most.tier.policy.MirroredWrite;
import io.most.tier.policy.Tier;

/**
 * How a read or a write of a mirrored segment splits into runs of subpages that go to one copy (MOST
 * paper 3.2.4), for {@link VolumeIo} and {@link VolumeBatch} alike. A caller walks the runs itself:
 * take the copy of the run's first subpage, then the run's end for that copy; nothing is allocated.
 * Offsets are bytes within the segment; {@code end} is the request's end.
 *
 * <p>A subpage's state is read once for the run it starts, and the run extends over the following
 * subpages that go to the same copy, so a run never reaches a subpage that its copy did not hold when
 * looked at (the states of a segment change under its shared lock, by writes of other subpages).
 */
final class MirrorRuns {
    private MirrorRuns() {
    }

    /** The copy that serves subpage {@code k} of a read routed to {@code route}: the route if clean, else the valid copy. */
    static Tier readCopy(MirrorState m, Tier route, int k) {
        int state = m.state(k);
        return state == MirrorState.CLEAN ? route : MirrorState.validCopy(state);
    }

    /** The end of the read run from {@code from}, whose first subpage {@code copy} serves. */
    static long readRunEnd(MirrorState m, Tier route, Tier copy, long from, long end, int subpageSize) {
        long at = (from / subpageSize + 1) * subpageSize;
        while (at < end && readCopy(m, route, (int) (at / subpageSize)) == copy) {
            at += subpageSize;
        }
        return Math.min(at, end);
    }

    /** Whether every subpage of {@code [from, to)} is clean: a run that failed on one copy may be read from the other. */
    static boolean allClean(MirrorState m, long from, long to, int subpageSize) {
        for (int k = (int) (from / subpageSize), last = (int) ((to - 1) / subpageSize); k <= last; k++) {
            if (m.state(k) != MirrorState.CLEAN) {
                return false;
            }
        }
        return true;
    }

    /**
     * Where the part of a write from {@code from} to {@code end} in subpage {@code k} goes: a whole subpage
     * (or a clean one) to the write's {@code route}, a part of one to a copy on which it is valid.
     */
    static MirroredWrite writeTarget(MirrorState m, MirroredWrite route, long from, long end, int k, int subpageSize) {
        long kStart = Math.max(from, (long) k * subpageSize);
        long kEnd = Math.min(end, (long) (k + 1) * subpageSize);
        int state = m.state(k);
        return kEnd - kStart == subpageSize || state == MirrorState.CLEAN ? route
                : MirroredWrite.to(MirrorState.validCopy(state));
    }

    /** The end of the write run from {@code from}, whose first subpage goes to {@code target}. */
    static long writeRunEnd(MirrorState m, MirroredWrite route, MirroredWrite target, long from, long end,
                            int subpageSize) {
        long at = (from / subpageSize + 1) * subpageSize;
        while (at < end && writeTarget(m, route, at, end, (int) (at / subpageSize), subpageSize) == target) {
            at += subpageSize;
        }
        return Math.min(at, end);
    }
}
