package io.most.tier;

import io.most.tier.policy.Tier;

import io.most.errors.MostException;
import io.most.device.BlockDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.BitSet;

/**
 * Rebuilds a volume's state when it is opened: load the valid checkpoint with the highest epoch (and
 * the segments' heat it saved, so that placement and mirroring resume warm),
 * replay the journal from its replay start until a batch is missing, torn or out of sequence, settle
 * the mirrored segments that have an intent in the replayed journal (their clean subpages become
 * valid on the performance copy only, so that reads cannot flip between copies that may differ),
 * rebuild the free slots (refusing a slot two segments claim) and load the watermarks. Anything
 * inconsistent is reported as damage, never repaired by guessing.
 */
final class Recovery {
    private final VolumeLayout layout;
    private final BlockDevice performance;
    private final SegmentCodec codec;
    private final SegmentTable table;
    private final SlotPool[] pools;
    private final Watermarks watermarks;
    private final HotnessTracker hotness;

    Recovery(VolumeLayout layout, BlockDevice performance, SegmentCodec codec, SegmentTable table, SlotPool[] pools,
             Watermarks watermarks, HotnessTracker hotness) {
        this.layout = layout;
        this.performance = performance;
        this.codec = codec;
        this.table = table;
        this.pools = pools;
        this.watermarks = watermarks;
        this.hotness = hotness;
    }

    /** Recovers into the table, pools, journal and log; returns the number of subpages settled. */
    long run(CheckpointStore checkpoints, Journal journal, MetadataLog log) {
        BitSet intents = new BitSet();
        try (Arena scratch = Arena.ofConfined()) {
            CheckpointStore.Loaded cp = checkpoints.readBest(scratch);
            if (cp == null || cp.header().segments() != layout.logicalSegments()) {
                throw damaged("neither checkpoint slot holds a valid checkpoint");
            }
            CheckpointStore.Header h = cp.header();
            long[] pos = {0};
            h.forEachSegment(s -> pos[0] = codec.applyState(cp.body(), pos[0], table, s));
            // warm restart: the heat the checkpoint saved (none in checkpoints without room for it:
            // those segments start cold, as before heat was saved)
            CheckpointStore.readHeat(cp.body(), pos[0], h.segments(), hotness::restore);
            Journal.End end = Journal.replay(performance, layout.journalOffset(), layout.journalBytes(), layout.salt(),
                    h.replaySeq(), h.replayPosition(), (seq, payload, records) -> apply(seq, payload, records, intents));
            long settled = settle(intents);
            claimSlots();
            watermarks.load();
            for (Tier t : Tier.values()) {
                pools[t.ordinal()].nextFresh(watermarks.durable(t));
            }
            journal.resume(end.nextSeq(), end.position(), h.replayPosition());
            log.resume(h.epoch(), h.slot(), h.replaySeq());
            return settled;
        } catch (MostException e) {
            throw e;
        } catch (RuntimeException e) {
            throw damaged(e.toString());
        }
    }

    private void apply(long seq, MemorySegment payload, int records, BitSet intents) {
        long pos = 0;
        for (int r = 0; r < records; r++) {
            byte type = payload.get(ValueLayout.JAVA_BYTE, pos);
            int segment = payload.get(Codec.INT, pos + 1);
            if (segment < 0 || segment >= layout.logicalSegments()) {
                throw damaged("journal batch " + seq + " names segment " + segment);
            }
            if (type == SegmentCodec.INTENT) {
                intents.set(segment);
                pos += SegmentCodec.INTENT_BYTES;
            } else if (type == SegmentCodec.SEGMENT) {
                pos = codec.applyState(payload, pos + 5, table, segment);
            } else {
                throw damaged("journal batch " + seq + " has a record of unknown type " + type);
            }
        }
    }

    /** Clean subpages of mirrored segments with an intent become valid on the performance copy only. */
    private long settle(BitSet intents) {
        long settled = 0;
        for (int s = intents.nextSetBit(0); s >= 0; s = intents.nextSetBit(s + 1)) {
            MirrorState m = table.mirror(s);
            for (int k = 0, end; m != null && k < m.subpages(); k = end) {
                end = m.runEnd(k, m.subpages());
                if (m.state(k) == MirrorState.CLEAN) {
                    m.setState(k, end, MirrorState.ONLY_PERFORMANCE);
                    settled += end - k;
                }
            }
        }
        return settled;
    }

    private void claimSlots() {
        for (int s = 0; s < layout.logicalSegments(); s++) {
            for (Tier t : Tier.values()) {
                int slot = table.slot(s, t);
                if (slot != SegmentTable.NONE && !pools[t.ordinal()].claim(slot)) {
                    throw damaged("segment " + s + " maps to slot " + slot + " of the " + t
                            + " device, which is out of range or claimed twice");
                }
            }
        }
    }

    private MostException damaged(String what) {
        return new MostException("the metadata of the tiered volume on performance device '" + performance.name()
                + "' is damaged (" + what + "); restore the devices from a backup");
    }
}
