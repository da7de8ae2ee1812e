package io.most.tier;

import io.most.device.BatchIOException;
import io.most.device.DeviceIOException;
import io.most.device.IoOp;
import io.most.device.IoRequest;
import io.most.tier.policy.MirroredWrite;
import io.most.tier.policy.Tier;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.StampedLock;

/**
 * A batch of reads and writes on a {@link TieredVolume} ({@link io.most.device.BlockDevice#transferAll}):
 * every request is split at segment boundaries and each piece is routed as {@link VolumeIo} routes a
 * single request (a mirrored read draws its copy from the policy per request, a mirrored write its
 * target), and what goes to each device is sent to it as one batch, both devices' batches in flight
 * together ({@link PairedBatches}).
 *
 * <p><b>Locks.</b> A batch holds the stripes of all its segments for the whole device I/O, as a single
 * request holds its one stripe: shared, or exclusive where one of its writes needs it (a write to a
 * mirrored segment that covers part of a subpage or goes to both copies, as in {@link VolumeIo}). So no
 * slot it uses is switched or freed under it (migration, discard), and a migration's copy learns of its
 * writes ({@link Migrator#noteWrite}) before it may switch the map. It takes its stripes in ascending
 * order, each once; it is the only holder of a stripe that waits for another one, and every other holder
 * (a single request, the migrator, the cleaner, a checkpoint's snapshot, a discard) waits for no stripe
 * and not for the journal while holding one, so no cycle of waits can form.
 *
 * <p><b>Rounds.</b> What cannot be done under this round's locks goes to the next round: a write to a
 * segment that became mirrored after it was routed, a write whose segment's intent a checkpoint made
 * stale (the intent is recorded between rounds, holding no lock), and a second write to a subpage of a
 * mirrored segment that an earlier write of the round touches (where a write of a partial subpage goes
 * depends on the state the other one leaves, so they run one after the other as two single writes
 * would). A write to an unallocated segment runs after its round, outside the round's locks, through the
 * single-request path: allocating takes the segment's lock exclusively, may zero a slot and may have to
 * reclaim mirrored space first, and does so for very few writes.
 *
 * <p><b>Failures.</b> A mirrored read whose copy fails is read again from the other copy when that one
 * is valid too, and a mirrored write whose target fails goes to the other copy when it may, as for a
 * single request; those retries run one at a time (the rare path). A write to both copies whose
 * performance copy failed is committed before the batch returns, as a single write is. The requests that
 * still failed are named by one {@link BatchIOException} after every request has finished.
 *
 * <p>Requests of one batch are concurrent operations: two of them on the same block leave either's data.
 */
final class VolumeBatch {
    private final VolumeLayout layout;
    private final SegmentTable table;
    private final HotnessTracker hotness;
    private final LatencyMonitor latency;
    private final MetadataLog log;
    private final Migrator migrator;
    private final Counters counters;
    private final VolumeIo io;
    private final PairedBatches devices;
    private final int segmentSize;
    private final int subpageSize;

    /** One request's part within one segment. */
    private static final class Piece {
        final int request;
        final int segment;
        final long offset;
        final MemorySegment buffer;
        final boolean write;
        /** A mirrored write's target, drawn once per piece as a single write draws it once. */
        MirroredWrite route;
        /** The mirrored segment this write has begun on in the current round ({@link MirrorState#beginWrite}). */
        MirrorState writing;

        Piece(int request, int segment, long offset, MemorySegment buffer, boolean write) {
            this.request = request;
            this.segment = segment;
            this.offset = offset;
            this.buffer = buffer;
            this.write = write;
        }

        boolean partial(int subpageSize) {
            return offset % subpageSize != 0 || (offset + buffer.byteSize()) % subpageSize != 0;
        }
    }

    /** One device request of a round: a piece's run on one copy. */
    private static final class Op {
        final Piece piece;
        final Tier tier;
        final long from;
        final MemorySegment part;
        /** A read that may be retried on the other copy (both valid). */
        final boolean retry;
        RuntimeException error;

        Op(Piece piece, Tier tier, long from, MemorySegment part, boolean retry) {
            this.piece = piece;
            this.tier = tier;
            this.from = from;
            this.part = part;
            this.retry = retry;
        }
    }

    /** A write run of a mirrored segment: subpages {@code [from, to)} bytes, to one copy or both. */
    private record Run(Piece piece, MirrorState mirror, MirroredWrite target, long from, long to, MemorySegment part,
                       Op performance, Op capacity) {
    }

    /** What one round sends to the devices and must settle afterwards. */
    private final class Round {
        final List<List<IoRequest>> requests = List.of(new ArrayList<>(), new ArrayList<>());
        final List<List<Op>> ops = List.of(new ArrayList<>(), new ArrayList<>());
        final List<Op> reads = new ArrayList<>();
        final List<Op> tieredWrites = new ArrayList<>();
        final List<Run> runs = new ArrayList<>();
        /** Mirrored writes begun ({@link Piece#writing}), to end once the round is settled. */
        final List<Piece> begun = new ArrayList<>();
        /** Subpages of mirrored segments written in this round, by segment. */
        final Map<Integer, BitSet> claimed = new HashMap<>();
        final List<Piece> mustCommit = new ArrayList<>();
        final List<Piece> allocate = new ArrayList<>();
        final List<Piece> next = new ArrayList<>();

        Op add(Piece piece, Tier tier, int slot, long from, MemorySegment part, boolean retry) {
            Op op = new Op(piece, tier, from, part, retry);
            long offset = layout.slotOffset(tier, slot) + from;
            requests.get(tier.ordinal()).add(piece.write ? IoRequest.write(offset, part) : IoRequest.read(offset, part));
            ops.get(tier.ordinal()).add(op);
            return op;
        }

        /** Claims subpages {@code [from, to)} of {@code segment} for one write; false if another write has one. */
        boolean claim(int segment, int from, int to) {
            BitSet bits = claimed.computeIfAbsent(segment, s -> new BitSet());
            int taken = bits.nextSetBit(from);
            if (taken >= 0 && taken < to) {
                return false;
            }
            bits.set(from, to);
            return true;
        }
    }

    VolumeBatch(VolumeLayout layout, SegmentTable table, HotnessTracker hotness, LatencyMonitor latency, MetadataLog log,
                Migrator migrator, Counters counters, VolumeIo io, PairedBatches devices) {
        this.layout = layout;
        this.table = table;
        this.hotness = hotness;
        this.latency = latency;
        this.log = log;
        this.migrator = migrator;
        this.counters = counters;
        this.io = io;
        this.devices = devices;
        this.segmentSize = layout.segmentSize();
        this.subpageSize = layout.subpageSize();
    }

    /**
     * Runs a checked, non-empty batch of the volume named {@code volume}; every request has finished
     * when this returns or throws.
     *
     * @throws BatchIOException naming the requests that failed
     */
    void transferAll(String volume, List<IoRequest> requests) {
        Map<Integer, RuntimeException> failures = new HashMap<>();
        List<Piece> pending = split(requests);
        while (!pending.isEmpty()) {
            pending = round(pending, failures);
        }
        if (!failures.isEmpty()) {
            throw new BatchIOException(volume, requests.size(), failures);
        }
    }

    private List<Piece> split(List<IoRequest> requests) {
        boolean demand = !LevelAboveMigration.active();
        List<Piece> pieces = new ArrayList<>(requests.size());
        for (int i = 0; i < requests.size(); i++) {
            IoRequest r = requests.get(i);
            boolean write = r.op() == IoOp.WRITE;
            long length = r.length();
            for (long done = 0; done < length; ) {
                long at = r.offset() + done;
                int segment = (int) (at / segmentSize);
                long inSegment = at % segmentSize;
                long n = Math.min(length - done, segmentSize - inSegment);
                pieces.add(new Piece(i, segment, inSegment, n == length ? r.buffer() : r.buffer().asSlice(done, n),
                        write));
                if (demand) {
                    if (write) {
                        hotness.recordWrite(segment);
                    } else {
                        hotness.recordRead(segment);
                    }
                }
                done += n;
            }
        }
        return pieces;
    }

    /** Runs what it can of {@code pending} under one set of locks; returns what is left for the next round. */
    private List<Piece> round(List<Piece> pending, Map<Integer, RuntimeException> failures) {
        List<Piece> live = new ArrayList<>(pending.size());
        for (Piece p : pending) {
            try {
                prepare(p);
                live.add(p);
            } catch (RuntimeException e) {
                fail(failures, p, e);
            }
        }
        Round round = new Round();
        TreeMap<Integer, Boolean> stripes = stripes(live);
        long[] stamps = lock(stripes);
        try {
            for (Piece p : live) {
                try {
                    if (p.write) {
                        planWrite(p, round);
                    } else {
                        planRead(p, round);
                    }
                } catch (RuntimeException e) {
                    fail(failures, p, e);
                }
            }
            execute(round, failures);
        } finally {
            for (Piece p : round.begun) {
                p.writing.endWrite();
                p.writing = null;
                table.markDirty(p.segment);
            }
            unlock(stripes, stamps);
        }
        if (!round.mustCommit.isEmpty()) {
            try {
                log.commit(); // a copy of the performance device may hold a torn write: see VolumeIo#writeOther
            } catch (RuntimeException e) {
                round.mustCommit.forEach(p -> fail(failures, p, e));
            }
        }
        for (Piece p : round.allocate) {
            try {
                io.writeCounted(p.segment, p.offset, p.buffer);
            } catch (RuntimeException e) {
                fail(failures, p, e);
            }
        }
        return round.next;
    }

    /** Before the locks: a write to a mirrored segment gets its target and its intent, as a single write does. */
    private void prepare(Piece p) {
        if (!p.write) {
            return;
        }
        MirrorState hint = table.mirror(p.segment);
        if (hint != null) {
            if (!log.intentCurrent(hint)) {
                log.requireIntent(p.segment, hint); // holding no lock: it may have to wait for a checkpoint
            }
            if (p.route == null) {
                p.route = io.policy().routeMirroredWrite(p.segment);
            }
        }
    }

    /** Each stripe the pieces need, and whether one of them needs it exclusively; in ascending order. */
    private TreeMap<Integer, Boolean> stripes(List<Piece> pieces) {
        TreeMap<Integer, Boolean> stripes = new TreeMap<>();
        int mask = table.stripeCount() - 1;
        for (Piece p : pieces) {
            boolean exclusive = p.write && p.route != null && (p.partial(subpageSize) || p.route == MirroredWrite.BOTH);
            stripes.merge(p.segment & mask, exclusive, Boolean::logicalOr);
        }
        return stripes;
    }

    private long[] lock(TreeMap<Integer, Boolean> stripes) {
        long[] stamps = new long[stripes.size()];
        int i = 0;
        for (Map.Entry<Integer, Boolean> e : stripes.entrySet()) {
            StampedLock lock = table.stripe(e.getKey());
            stamps[i++] = e.getValue() ? lock.writeLock() : lock.readLock();
        }
        return stamps;
    }

    private void unlock(TreeMap<Integer, Boolean> stripes, long[] stamps) {
        int i = 0;
        for (Integer stripe : stripes.keySet()) {
            table.stripe(stripe).unlock(stamps[i++]);
        }
    }

    // ---------------------------------------------------------------- planning, under the locks

    private void planRead(Piece p, Round round) {
        int perf = table.slot(p.segment, Tier.PERFORMANCE);
        int cap = table.slot(p.segment, Tier.CAPACITY);
        if (perf == SegmentTable.NONE && cap == SegmentTable.NONE) {
            p.buffer.fill((byte) 0);
        } else if (cap == SegmentTable.NONE) {
            round.reads.add(round.add(p, Tier.PERFORMANCE, perf, p.offset, p.buffer, false));
        } else if (perf == SegmentTable.NONE) {
            round.reads.add(round.add(p, Tier.CAPACITY, cap, p.offset, p.buffer, false));
        } else {
            planMirroredRead(p, table.mirror(p.segment), round);
        }
    }

    /** As {@link VolumeIo}'s mirrored read: runs of subpages by the copy that serves them. */
    private void planMirroredRead(Piece p, MirrorState m, Round round) {
        Tier route = io.policy().routeMirroredRead(p.segment);
        long end = p.offset + p.buffer.byteSize();
        for (long from = p.offset, to; from < end; from = to) {
            Tier copy = MirrorRuns.readCopy(m, route, (int) (from / subpageSize));
            to = MirrorRuns.readRunEnd(m, route, copy, from, end, subpageSize);
            round.reads.add(round.add(p, copy, table.slot(p.segment, copy), from, slice(p, from, to),
                    MirrorRuns.allClean(m, from, to, subpageSize)));
        }
    }

    private void planWrite(Piece p, Round round) {
        int perf = table.slot(p.segment, Tier.PERFORMANCE);
        int cap = table.slot(p.segment, Tier.CAPACITY);
        if (perf == SegmentTable.NONE && cap == SegmentTable.NONE) {
            round.allocate.add(p);
            return;
        }
        if (perf == SegmentTable.NONE || cap == SegmentTable.NONE) {
            Tier tier = perf == SegmentTable.NONE ? Tier.CAPACITY : Tier.PERFORMANCE;
            round.tieredWrites.add(round.add(p, tier, Math.max(perf, cap), p.offset, p.buffer, false));
            return;
        }
        if (p.route == null) {
            round.next.add(p); // mirrored since it was routed: route it and take its lock as its target needs
            return;
        }
        MirrorState m = table.mirror(p.segment);
        int kFrom = (int) (p.offset / subpageSize);
        int kTo = (int) ((p.offset + p.buffer.byteSize() - 1) / subpageSize) + 1;
        if (!round.claim(p.segment, kFrom, kTo)) {
            round.next.add(p);
            return;
        }
        m.beginWrite(); // before the intent check, as in VolumeIo (a checkpoint's snapshot then sees it)
        if (!log.intentCurrent(m)) {
            m.endWrite();
            round.next.add(p);
            return;
        }
        p.writing = m;
        round.begun.add(p);
        planMirroredWrite(p, m, round);
    }

    /** As {@link VolumeIo}'s mirrored write: runs of subpages by target; a run to both copies is two requests. */
    private void planMirroredWrite(Piece p, MirrorState m, Round round) {
        long end = p.offset + p.buffer.byteSize();
        for (long from = p.offset, to; from < end; from = to) {
            MirroredWrite target = MirrorRuns.writeTarget(m, p.route, from, end, (int) (from / subpageSize), subpageSize);
            to = MirrorRuns.writeRunEnd(m, p.route, target, from, end, subpageSize);
            addRun(p, m, target, from, to, round);
        }
    }

    private void addRun(Piece p, MirrorState m, MirroredWrite target, long from, long to, Round round) {
        MemorySegment part = slice(p, from, to);
        Op perf = target == MirroredWrite.CAPACITY ? null
                : round.add(p, Tier.PERFORMANCE, table.slot(p.segment, Tier.PERFORMANCE), from, part, false);
        Op cap = target == MirroredWrite.PERFORMANCE ? null
                : round.add(p, Tier.CAPACITY, table.slot(p.segment, Tier.CAPACITY), from, part, false);
        round.runs.add(new Run(p, m, target, from, to, part, perf, cap));
    }

    private static MemorySegment slice(Piece p, long from, long to) {
        return from == p.offset && to - from == p.buffer.byteSize() ? p.buffer : p.buffer.asSlice(from - p.offset, to - from);
    }

    // ---------------------------------------------------------------- execution and settling, under the locks

    private void execute(Round round, Map<Integer, RuntimeException> failures) {
        PairedBatches.Result[] results = devices.run(round.requests.get(0), round.requests.get(1));
        boolean demand = !LevelAboveMigration.active();
        for (Tier tier : Tier.values()) {
            List<Op> ops = round.ops.get(tier.ordinal());
            PairedBatches.Result result = results[tier.ordinal()];
            for (int i = 0; i < ops.size(); i++) {
                ops.get(i).error = result.failures()[i];
                if (demand) {
                    latency.record(tier, result.nanos()); // each request waited for its whole batch
                }
            }
        }
        for (Op op : round.reads) {
            settleRead(op, failures);
        }
        for (Op op : round.tieredWrites) {
            if (op.error != null) {
                fail(failures, op.piece, op.error);
            } else {
                migrator.noteWrite(op.piece.segment, op.from, op.part.byteSize());
            }
        }
        for (Run run : round.runs) {
            try {
                settleRun(run, round);
            } catch (RuntimeException e) {
                fail(failures, run.piece(), e);
            }
        }
    }

    private void settleRead(Op op, Map<Integer, RuntimeException> failures) {
        if (op.error == null) {
            return;
        }
        if (!op.retry || !(op.error instanceof DeviceIOException)) {
            fail(failures, op.piece, op.error);
            return;
        }
        counters.readRetries.increment();
        Tier other = op.tier.other();
        try {
            io.timedRead(other, table.slot(op.piece.segment, other), op.from, op.part);
        } catch (DeviceIOException second) {
            op.error.addSuppressed(second);
            fail(failures, op.piece, op.error);
        }
    }

    /** Sets the run's subpage states by what reached each copy, as {@link VolumeIo}'s write of that run would. */
    private void settleRun(Run run, Round round) {
        int segment = run.piece().segment;
        MirrorState m = run.mirror();
        int kFrom = (int) (run.from() / subpageSize);
        int kTo = (int) ((run.to() - 1) / subpageSize) + 1;
        if (run.target() != MirroredWrite.BOTH) {
            Op op = run.performance() != null ? run.performance() : run.capacity();
            if (op.error == null) {
                m.setState(kFrom, kTo, MirrorState.onlyOn(op.tier));
                return;
            }
            if (!(op.error instanceof DeviceIOException failed)) {
                throw op.error;
            }
            try {
                io.writeOther(segment, m, op.tier, run.from(), run.to(), run.part(), failed);
            } finally {
                if (io.takeRetriedAwayFromPerformance()) {
                    round.mustCommit.add(run.piece());
                }
            }
            return;
        }
        RuntimeException perf = run.performance().error;
        RuntimeException cap = run.capacity().error;
        if (perf == null) {
            m.setState(kFrom, kTo, cap == null ? MirrorState.CLEAN : MirrorState.ONLY_PERFORMANCE);
            if (cap != null) {
                counters.writeRetries.increment(); // the write is complete on one copy
            }
            return;
        }
        if (cap == null) {
            // every subpage of a run to both is covered whole or was clean: the capacity copy is whole now
            m.setState(kFrom, kTo, MirrorState.ONLY_CAPACITY);
            counters.writeRetries.increment();
            round.mustCommit.add(run.piece());
            return;
        }
        for (int k = kFrom; k < kTo; k++) { // as a single write leaves it when both copies fail
            if (m.state(k) == MirrorState.CLEAN) {
                m.setState(k, k + 1, MirrorState.ONLY_CAPACITY);
            }
        }
        if (perf != cap) {
            perf.addSuppressed(cap);
        }
        throw perf;
    }

    private static void fail(Map<Integer, RuntimeException> failures, Piece p, RuntimeException e) {
        failures.merge(p.request, e, (first, later) -> {
            if (first != later) {
                first.addSuppressed(later);
            }
            return first;
        });
    }
}
