package io.most.tier;

import io.most.tier.policy.Tier;

import io.most.device.BlockDevice;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.StampedLock;

/**
 * Makes the segment map and subpage bits crash-consistent: the commit protocol over the
 * {@link Journal} and the {@link CheckpointStore}. One lock serialises everything that appends or
 * checkpoints; nobody holds a segment lock while waiting for it.
 *
 * <p><b>Commit</b> ({@link #commit()}, the volume's {@code force()}): take the states of the segments
 * changed since the last commit (each read optimistically, or under its stripe's shared lock if a map
 * change races the read — changes are made only after the data they describe is written), force both
 * data devices, then append the states as one batch and force
 * again. A state therefore never becomes durable before the data it points to: no stale copy can be
 * served after a crash. Without changes a commit is just the two forces.
 *
 * <p><b>Intent</b> ({@link #requireIntent}): before the first write since the current checkpoint
 * began that may make the two copies of a mirrored segment differ, an intent record for that segment
 * is appended and forced (md-RAID1's write-intent bitmap, once per segment per checkpoint: concurrent
 * requests share one batch). Recovery distrusts the "both copies valid" state of every segment with
 * an intent in the replayed journal and serves those subpages from the performance copy only, so a
 * block can never flip between an old and a new value across reads.
 *
 * <p><b>Checkpoint</b> ({@link #checkpoint()}): snapshot every segment under its exclusive lock into
 * the unused slot, force the data devices, write and verify the header; only then is journal space
 * before the checkpoint's replay start released. Taken when the journal is half full, when a commit
 * would not fit, after a journal write failed, after recovery and at close. Intents are per
 * checkpoint: {@link #intentCurrent} compares a segment's intent with the newest checkpoint's replay
 * start, which is set before the snapshot, so a write racing with a checkpoint either finishes
 * before its segment is snapshotted or records a new intent the checkpoint will replay.
 */
final class MetadataLog {
    private final Object lock = new Object();
    private final SegmentTable table;
    private final SegmentCodec codec;
    private final Journal journal;
    private final CheckpointStore checkpoints;
    private final BlockDevice performance;
    private final BlockDevice capacity;
    private final ConcurrentLinkedQueue<Intent> pendingIntents = new ConcurrentLinkedQueue<>();
    private final List<MirrorState> batchIntents = new ArrayList<>();
    private final LongAdder intentRecords = new LongAdder();
    private volatile long replayStart;
    private volatile long checkpointsTaken;
    /** Time spent in checkpoints (written under the lock, read without it). */
    private volatile long checkpointNanos;
    private long epoch;
    private int activeSlot;
    // commit encoding state, guarded by lock
    private long encoded;
    private int records;
    private boolean overflow;

    private record Intent(int segment, MirrorState mirror) {
    }

    MetadataLog(SegmentTable table, SegmentCodec codec, Journal journal, CheckpointStore checkpoints,
                BlockDevice performance, BlockDevice capacity) {
        this.table = table;
        this.codec = codec;
        this.journal = journal;
        this.checkpoints = checkpoints;
        this.performance = performance;
        this.capacity = capacity;
    }

    /** Continues from the durable checkpoint {@code epoch} in {@code slot}, replaying from {@code seq}. */
    void resume(long checkpointEpoch, int slot, long seq) {
        synchronized (lock) {
            this.epoch = checkpointEpoch;
            this.activeSlot = slot;
            this.replayStart = seq;
        }
    }

    /** Whether a write may diverge the copies of the segment with {@code mirror} without a new intent. */
    boolean intentCurrent(MirrorState mirror) {
        return mirror.intentSeq() >= replayStart;
    }

    /** Makes an intent for {@code segment} durable. The caller holds no segment lock. */
    void requireIntent(int segment, MirrorState mirror) {
        if (intentCurrent(mirror)) {
            return;
        }
        pendingIntents.add(new Intent(segment, mirror));
        synchronized (lock) {
            if (intentCurrent(mirror)) {
                return; // an earlier batch carried it
            }
            if (journal.poisoned()) {
                checkpointLocked();
            }
            MemorySegment payload = journal.payload();
            long pos = codec.putIntent(payload, 0, segment);
            batchIntents.clear();
            batchIntents.add(mirror);
            for (Intent i; pos + SegmentCodec.INTENT_BYTES <= journal.payloadCapacity()
                    && (i = pendingIntents.poll()) != null; ) {
                if (i.mirror() != mirror && !intentCurrent(i.mirror())) {
                    pos = codec.putIntent(payload, pos, i.segment());
                    batchIntents.add(i.mirror());
                }
            }
            if (!journal.fits((int) pos)) {
                checkpointLocked();
            }
            long seq = journal.append((int) pos, batchIntents.size());
            for (MirrorState m : batchIntents) {
                m.intentSeq(seq);
            }
            intentRecords.add(batchIntents.size());
        }
    }

    /** Makes every completed write and every metadata change durable (see the class comment). */
    void commit() {
        synchronized (lock) {
            if (journal.poisoned()) {
                checkpointLocked();
                return;
            }
            encoded = 0;
            records = 0;
            overflow = false;
            table.drainDirty(this::encodeSegment);
            try {
                forceData();
                if (overflow || (records > 0 && !journal.fits((int) encoded))) {
                    checkpointLocked(); // covers every segment, including those not encoded
                } else if (records > 0) {
                    journal.append((int) encoded, records);
                }
            } catch (RuntimeException e) {
                if (overflow) {
                    table.markAllDirty();
                } else {
                    remarkEncoded();
                }
                throw e;
            }
        }
    }

    /** Takes a checkpoint now. */
    void checkpoint() {
        synchronized (lock) {
            checkpointLocked();
        }
    }

    /** Whether the journal is at least half full, so a checkpoint is due. */
    boolean checkpointDue() {
        synchronized (lock) {
            return journal.poisoned() || journal.usedBytes() * 2 > journal.regionBytes();
        }
    }

    /**
     * Read without the log's lock: a checkpoint or commit holds it across device forces (and a checkpoint
     * that took stripe locks queued behind slow reads once made a statistics call wait 25 s of a bench
     * run), and {@code TieredVolume.tierStats} must not wait for them.
     */
    long journalBatches() {
        return journal.batches();
    }

    /** Read without the log's lock, as {@link #journalBatches}. */
    long journalBytes() {
        return journal.bytesWritten();
    }

    long intentRecords() {
        return intentRecords.sum();
    }

    long checkpoints() {
        return checkpointsTaken;
    }

    /** Nanoseconds spent taking checkpoints, failed ones included; read without the log's lock. */
    long checkpointNanos() {
        return checkpointNanos;
    }

    private void checkpointLocked() {
        long seq = journal.nextSeq();
        long position = journal.head();
        replayStart = seq;
        int target = 1 - activeSlot;
        long start = System.nanoTime();
        try {
            checkpoints.write(target, epoch + 1, seq, position, table, this::forceData);
        } catch (RuntimeException e) {
            table.markAllDirty(); // snapshots cleared marks; the journal must still learn those states
            throw e;
        } finally {
            checkpointNanos += System.nanoTime() - start; // one writer: the lock's holder
        }
        epoch++;
        activeSlot = target;
        journal.release(position);
        checkpointsTaken++;
    }

    private void forceData() {
        capacity.force();
        performance.force();
    }

    /**
     * Encodes {@code segment}'s state (its dirty mark is already cleared) into the batch. Read
     * optimistically first, as a checkpoint's snapshot is: the map changes only under the stripe's
     * exclusive lock, so a stamp that validates saw a whole state, and a shared lock would wait, while
     * holding the log's lock, behind a migration queued for the stripe and the reads in flight before it.
     * Subpage bits that change meanwhile are marked dirty again and go into the next batch.
     */
    private void encodeSegment(int segment) {
        if (overflow) {
            return;
        }
        StampedLock lock = table.lock(segment);
        long stamp = lock.tryOptimisticRead();
        if (stamp != 0) {
            long encodedBefore = encoded;
            int recordsBefore = records;
            encodeState(segment);
            if (lock.validate(stamp)) {
                return;
            }
            encoded = encodedBefore; // torn by a map change: encode it again under the lock
            records = recordsBefore;
            overflow = false;
        }
        long shared = lock.readLock();
        try {
            encodeState(segment);
        } finally {
            lock.unlockRead(shared);
        }
    }

    private void encodeState(int segment) {
        MirrorState m = table.mirror(segment);
        if (encoded + 5 + codec.stateBytes(m != null) > journal.payloadCapacity()) {
            overflow = true;
            return;
        }
        encoded = codec.putSegment(journal.payload(), encoded, segment, table.slot(segment, Tier.PERFORMANCE),
                table.slot(segment, Tier.CAPACITY), m);
        records++;
    }

    /** Marks the segments of the encoded but unwritten batch dirty again. */
    private void remarkEncoded() {
        MemorySegment payload = journal.payload();
        for (long pos = 0; pos < encoded; ) {
            int segment = payload.get(Codec.INT, pos + 1);
            table.markDirty(segment);
            if (payload.get(ValueLayout.JAVA_BYTE, pos) == SegmentCodec.INTENT) {
                pos += SegmentCodec.INTENT_BYTES;
            } else {
                boolean mirrored = payload.get(Codec.INT, pos + 5) != SegmentTable.NONE
                        && payload.get(Codec.INT, pos + 9) != SegmentTable.NONE;
                pos += 5 + codec.stateBytes(mirrored);
            }
        }
    }
}
