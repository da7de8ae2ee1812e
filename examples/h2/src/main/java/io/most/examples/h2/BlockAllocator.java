package io.most.examples.h2;

import io.most.errors.OutOfSpaceException;
import java.util.BitSet;

/**
 * Which volume blocks are in use. A block freed since the last metadata commit stays unavailable
 * ("pending") until that commit is durable: the durable metadata may still name it as part of a
 * file, so reusing it earlier could overwrite data a crash would bring back. Thread-safe (one
 * monitor; allocation is rare next to reads and writes).
 */
final class BlockAllocator {
    private final long blockCount;
    private final BitSet used;
    private final BitSet pending = new BitSet();
    private long cursor;
    private long usedCount;
    private long peakUsedCount;
    private long pendingCount;

    BlockAllocator(long blockCount) {
        this.blockCount = blockCount;
        this.used = new BitSet((int) blockCount);
    }

    /** Marks {@code block} in use (at open, from the durable metadata). */
    synchronized void markUsed(long block) {
        if (!used.get((int) block)) {
            used.set((int) block);
            usedCount++;
            peakUsedCount = Math.max(peakUsedCount, usedCount);
        }
    }

    /**
     * Allocates a block, {@code preferred} if it is free (to keep a file's blocks contiguous), else
     * the next free one after the last allocation, leaving at least {@code reserve} blocks free (room
     * for the next directory commit, which must never fail for want of space).
     *
     * @throws OutOfSpaceException if no block beyond the reserve is free
     */
    synchronized long allocate(long preferred, long reserve) {
        long block = -1;
        if (blockCount - usedCount - pendingCount <= reserve) {
            throw full();
        }
        if (preferred >= 0 && preferred < blockCount && isFree((int) preferred)) {
            block = preferred;
        } else {
            block = nextFree(cursor, blockCount);
            if (block < 0) {
                block = nextFree(0, cursor);
            }
        }
        if (block < 0) {
            throw full();
        }
        used.set((int) block);
        usedCount++;
        peakUsedCount = Math.max(peakUsedCount, usedCount);
        cursor = block + 1;
        return block;
    }

    /** Frees {@code block}; it becomes reusable after {@link #reuse}. */
    synchronized void free(long block) {
        if (used.get((int) block)) {
            used.clear((int) block);
            usedCount--;
        }
        if (!pending.get((int) block)) {
            pending.set((int) block);
            pendingCount++;
        }
    }

    /** Takes back a block allocated by a change that failed before anything named it: reusable at once. */
    synchronized void rollback(long block) {
        if (used.get((int) block)) {
            used.clear((int) block);
            usedCount--;
        }
    }

    /** Number of freed blocks waiting for commits before they can be reused. */
    synchronized long pendingBlocks() {
        return pendingCount;
    }

    /** The blocks pending now (taken with the metadata snapshot that no longer names them). */
    synchronized BitSet pendingSnapshot() {
        return (BitSet) pending.clone();
    }

    /** Makes {@code blocks} (a {@link #pendingSnapshot}) reusable: the commit that dropped them is durable. */
    synchronized void reuse(BitSet blocks) {
        BitSet both = (BitSet) pending.clone();
        both.and(blocks);
        pendingCount -= both.cardinality();
        pending.andNot(blocks);
    }

    /** Number of blocks in use. */
    synchronized long usedBlocks() {
        return usedCount;
    }

    /** The most blocks in use at once since the volume opened: what a device for this use must hold. */
    synchronized long peakUsedBlocks() {
        return peakUsedCount;
    }

    private OutOfSpaceException full() {
        return new OutOfSpaceException("the MOST volume is full: " + usedCount + " of " + blockCount + " blocks are in use"
                + (pendingCount == 0 ? "" : " and " + pendingCount + " freed blocks wait for the next commits")
                + "; delete data, or use a larger device");
    }

    private boolean isFree(int block) {
        return !used.get(block) && !pending.get(block);
    }

    private long nextFree(long from, long to) {
        for (int b = used.nextClearBit((int) from); b < to; b = used.nextClearBit(b + 1)) {
            if (!pending.get(b)) {
                return b;
            }
        }
        return -1;
    }
}
