package io.most.tier;

import io.most.tier.policy.Tier;

import io.most.device.BlockDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The durable high-water mark of used slots on each device: a slot at or above it has never held a
 * segment's data, so it need not be zeroed before a new segment uses it. Before the volume writes
 * into a slot at or above the mark, the mark is raised (by a chunk of 1/64 of the device, so this
 * costs one small write and force per chunk) and made durable. Two blocks on the performance device
 * alternate, each with a sequence number and CRC, so a torn update leaves the previous mark.
 */
final class Watermarks {
    private static final long MAGIC = 0x4B52_414D_5254_534DL; // "MSTRMARK"
    private final BlockDevice device;
    private final long offset;
    private final long salt;
    private final int[] slots;
    private final int[] durable = new int[2];
    private final MemorySegment block;
    private long seq;

    Watermarks(BlockDevice device, long offset, long salt, int perfSlots, int capSlots, Arena arena) {
        this.device = device;
        this.offset = offset;
        this.salt = salt;
        this.slots = new int[] {perfSlots, capSlots};
        this.block = device.allocate(arena, device.blockSize());
    }

    /** Writes marks of zero (a fresh volume). */
    synchronized void format() {
        durable[0] = 0;
        durable[1] = 0;
        seq = 0;
        persist(); // seq 1 into block 1
        persist(); // seq 2 into block 0, so that neither block holds a stale mark of an older volume
    }

    /** Loads the newest valid mark; with none (both damaged), assumes every slot may hold data. */
    synchronized void load() {
        long best = -1;
        for (int i = 0; i < 2; i++) {
            device.read(offset + (long) i * device.blockSize(), block);
            if (block.get(Codec.LONG, 0) != MAGIC || block.get(Codec.LONG, 8) != salt
                    || block.get(Codec.INT, 32) != Codec.crc(block.asSlice(0, 32))) {
                continue;
            }
            long s = block.get(Codec.LONG, 16);
            if (s > best) {
                best = s;
                durable[0] = block.get(Codec.INT, 24);
                durable[1] = block.get(Codec.INT, 28);
            }
        }
        if (best < 0) {
            durable[0] = slots[0];
            durable[1] = slots[1];
            best = 0;
        }
        seq = best;
    }

    /** The durable mark of {@code tier}. */
    synchronized int durable(Tier tier) {
        return durable[tier.ordinal()];
    }

    /** Makes sure the durable mark of {@code tier} is above {@code slot} before data is written there. */
    synchronized void ensure(Tier tier, int slot) {
        int i = tier.ordinal();
        if (slot < durable[i]) {
            return;
        }
        int old = durable[i];
        durable[i] = Math.min(slots[i], slot + 1 + Math.max(1, slots[i] / 64));
        try {
            persist();
        } catch (RuntimeException e) {
            durable[i] = old;
            throw e;
        }
    }

    private void persist() {
        long next = seq + 1;
        block.fill((byte) 0);
        block.set(Codec.LONG, 0, MAGIC);
        block.set(Codec.LONG, 8, salt);
        block.set(Codec.LONG, 16, next);
        block.set(Codec.INT, 24, durable[0]);
        block.set(Codec.INT, 28, durable[1]);
        block.set(Codec.INT, 32, Codec.crc(block.asSlice(0, 32)));
        device.write(offset + (next & 1) * device.blockSize(), block);
        device.force();
        seq = next;
    }
}
