package io.most.examples.h2;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * The extent map of one file: file block {@code i} lives in volume block {@link #get(int) get(i)}.
 * Kept in memory as a growable array (8 bytes per block) and stored as runs of consecutive volume
 * blocks, so a file written sequentially costs a few bytes of metadata however large it is.
 * Not thread-safe: the owning {@link FileNode}'s lock guards it.
 */
final class BlockList {
    private long[] blocks = new long[8];
    private int count;

    /** Number of blocks. */
    int size() {
        return count;
    }

    /** The volume block of file block {@code index}. */
    long get(int index) {
        if (index < 0 || index >= count) {
            throw new IndexOutOfBoundsException("file block " + index + " of " + count);
        }
        return blocks[index];
    }

    /** The volume block that would extend the last run (where to allocate next), or -1 if empty. */
    long nextContiguous() {
        return count == 0 ? -1 : blocks[count - 1] + 1;
    }

    /** Appends a volume block. */
    void add(long block) {
        if (count == blocks.length) {
            blocks = Arrays.copyOf(blocks, blocks.length * 2);
        }
        blocks[count++] = block;
    }

    /** Removes and returns the blocks from index {@code newCount} on. */
    long[] truncate(int newCount) {
        long[] removed = Arrays.copyOfRange(blocks, newCount, count);
        count = newCount;
        return removed;
    }

    /** Number of consecutive volume blocks starting at file block {@code index}, at most {@code max}. */
    int runLength(int index, int max) {
        int n = 1;
        while (n < max && index + n < count && blocks[index + n] == blocks[index] + n) {
            n++;
        }
        return n;
    }

    /** Every volume block, for rebuilding the allocation map. */
    void forEach(java.util.function.LongConsumer action) {
        for (int i = 0; i < count; i++) {
            action.accept(blocks[i]);
        }
    }

    /** Writes the list as a run count and (start, length) runs. */
    void writeTo(DataOutput out) throws IOException {
        int runs = 0;
        for (int i = 0; i < count; i += runLength(i, Integer.MAX_VALUE)) {
            runs++;
        }
        out.writeInt(runs);
        for (int i = 0; i < count; ) {
            int n = runLength(i, Integer.MAX_VALUE);
            out.writeLong(blocks[i]);
            out.writeInt(n);
            i += n;
        }
    }

    /** Reads what {@link #writeTo} wrote; every block must lie in {@code [0, blockCount)}. */
    static BlockList readFrom(DataInput in, long blockCount) throws IOException {
        BlockList list = new BlockList();
        int runs = in.readInt();
        if (runs < 0) {
            throw new IOException("negative run count " + runs);
        }
        for (int r = 0; r < runs; r++) {
            long start = in.readLong();
            int n = in.readInt();
            if (start < 0 || n <= 0 || start + n > blockCount) {
                throw new IOException("run [" + start + ", +" + n + ") outside the volume's " + blockCount + " blocks");
            }
            for (int i = 0; i < n; i++) {
                list.add(start + i);
            }
        }
        return list;
    }
}
