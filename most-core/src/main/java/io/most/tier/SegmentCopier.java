package io.most.tier;

import io.most.device.IoRequest;
import io.most.tier.policy.Tier;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The copy phase of the {@link Migrator}'s relocations: whole segments, old slot to new slot, as many
 * chunks per device batch as the buffer holds, one batch of reads and then one of writes, both devices
 * in flight together ({@link PairedBatches}), marked as migration I/O for a volume below. Used by the
 * migrator only, under its monitor: one copy at a time uses the buffer.
 */
final class SegmentCopier {
    private final VolumeLayout layout;
    private final PairedBatches batches;
    private final MemorySegment buffer;
    private final long chunk;

    /** A piece of segment {@code owner}'s copy at byte {@code at}, one chunk at most. */
    private record Chunk(int owner, long at) {
    }

    /** Copies through {@code buffer}, a whole number of {@code chunk}-byte chunks. */
    SegmentCopier(VolumeLayout layout, PairedBatches batches, MemorySegment buffer, long chunk) {
        this.layout = layout;
        this.batches = batches;
        this.buffer = buffer;
        this.chunk = chunk;
    }

    /**
     * Copies each segment {@code i} with {@code live[i]} whole from {@code fromSlots[i]} on device
     * {@code from[i]} to {@code toSlots[i]} on the other device. A segment one of whose chunks failed is
     * left out from then on and its {@code live[i]} cleared; returns the first failure, or null.
     */
    RuntimeException copy(Tier[] from, int[] fromSlots, int[] toSlots, boolean[] live) {
        List<Chunk> all = new ArrayList<>();
        for (int i = 0; i < live.length; i++) {
            for (long at = 0; live[i] && at < layout.segmentSize(); at += chunk) {
                all.add(new Chunk(i, at));
            }
        }
        int perBatch = (int) (buffer.byteSize() / chunk);
        RuntimeException failure = null;
        for (int b = 0; b < all.size(); b += perBatch) {
            List<Chunk> batch = all.subList(b, Math.min(all.size(), b + perBatch));
            failure = first(failure, transfer(batch, from, fromSlots, toSlots, live, true));
            failure = first(failure, transfer(batch, from, fromSlots, toSlots, live, false));
        }
        return failure;
    }

    /**
     * Reads {@code chunks} of the live segments from their old slots into the buffer (chunk {@code j} at
     * {@code j} chunks in), or writes them from there to the new slots: one batch per device, both at once.
     */
    private RuntimeException transfer(List<Chunk> chunks, Tier[] from, int[] fromSlots, int[] toSlots, boolean[] live,
                                      boolean read) {
        List<List<IoRequest>> requests = List.of(new ArrayList<>(), new ArrayList<>());
        List<List<Chunk>> owners = List.of(new ArrayList<>(), new ArrayList<>());
        for (int j = 0; j < chunks.size(); j++) {
            Chunk c = chunks.get(j);
            if (!live[c.owner()]) {
                continue;
            }
            MemorySegment part = buffer.asSlice(j * chunk, Math.min(chunk, layout.segmentSize() - c.at()));
            Tier tier = read ? from[c.owner()] : from[c.owner()].other();
            long offset = layout.slotOffset(tier, read ? fromSlots[c.owner()] : toSlots[c.owner()]) + c.at();
            requests.get(tier.ordinal()).add(read ? IoRequest.read(offset, part) : IoRequest.write(offset, part));
            owners.get(tier.ordinal()).add(c);
        }
        PairedBatches.Result[] results = batches.runAsMigration(requests.get(0), requests.get(1));
        RuntimeException failure = null;
        for (Tier t : Tier.values()) {
            for (int j = 0; j < owners.get(t.ordinal()).size(); j++) {
                if (results[t.ordinal()].failed(j)) {
                    failure = first(failure, results[t.ordinal()].failures()[j]);
                    live[owners.get(t.ordinal()).get(j).owner()] = false;
                }
            }
        }
        return failure;
    }

    /** {@code failure}, or {@code e} if there was none; a later failure is attached to the first. */
    static RuntimeException first(RuntimeException failure, RuntimeException e) {
        if (failure == null) {
            return e;
        }
        if (e != null && e != failure) {
            failure.addSuppressed(e);
        }
        return failure;
    }
}
