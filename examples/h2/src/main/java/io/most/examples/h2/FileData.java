package io.most.examples.h2;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Byte-addressed reads, writes and truncation of one file over a volume's blocks. Whole blocks that
 * are consecutive on the volume move in one request; partial blocks go through the backing's
 * read-modify-write. Invariant: a file holds exactly {@code ceil(size / blockBytes)} blocks, and the
 * bytes of its last block beyond {@code size} are zeroed before the file grows over them, so a hole
 * or a region past a truncation always reads as zeros. The caller holds the file's lock (read lock
 * for reads, write lock for the rest).
 */
final class FileData {
    private final BlockSpace space;
    private final BlockAllocator allocator;
    private final int blockBytes;

    private final java.util.function.LongSupplier reserve;

    FileData(BlockSpace space, BlockAllocator allocator, java.util.function.LongSupplier reserve) {
        this.space = space;
        this.allocator = allocator;
        this.reserve = reserve;
        this.blockBytes = space.blockBytes();
    }

    /** Reads from {@code position}; returns the bytes read, or -1 at or past the end. */
    int read(FileNode node, long position, ByteBuffer dst) {
        long size = node.size;
        if (!dst.hasRemaining()) {
            return 0;
        }
        if (position >= size) {
            return -1;
        }
        int n = (int) Math.min(dst.remaining(), size - position);
        ByteBuffer target = dst.slice(dst.position(), n);
        transfer(node, position, target, false, -1);
        dst.position(dst.position() + n);
        return n;
    }

    /**
     * Writes all of {@code src} at {@code position}, growing the file (and zero-filling any gap) as
     * needed. Returns whether the file's metadata (size or blocks) changed.
     *
     * @throws io.most.errors.OutOfSpaceException if the volume has no free block left; the file is unchanged
     */
    boolean write(FileNode node, long position, ByteBuffer src) {
        int n = src.remaining();
        if (n == 0) {
            return false;
        }
        long oldSize = node.size;
        long end = position + n;
        BlockList blocks = node.blocks;
        int firstNew = blocks.size();
        int needed = (int) ((end + blockBytes - 1) / blockBytes);
        try {
            for (int i = firstNew; i < needed; i++) {
                long b = allocator.allocate(blocks.nextContiguous(), reserve.getAsLong());
                space.claim(b);
                blocks.add(b);
            }
        } catch (RuntimeException e) {
            for (long b : blocks.truncate(firstNew)) {
                space.release(b);
                allocator.rollback(b);
            }
            throw e;
        }
        if (position > oldSize) {
            zeroGap(node, oldSize, position, firstNew);
        }
        transfer(node, position, src.slice(src.position(), n), true, firstNew);
        src.position(src.position() + n);
        if (end > oldSize) {
            node.size = end;
        }
        node.lastModified = System.currentTimeMillis();
        return needed > firstNew || end > oldSize;
    }

    /** Shrinks the file to {@code newSize} (no-op if not smaller); returns whether it changed. */
    boolean truncate(FileNode node, long newSize) {
        if (newSize >= node.size) {
            return false;
        }
        int keep = (int) ((newSize + blockBytes - 1) / blockBytes);
        for (long b : node.blocks.truncate(keep)) {
            allocator.free(b); // reusable once a commit no longer names it (BlockAllocator)
        }
        node.size = newSize;
        node.lastModified = System.currentTimeMillis();
        return true;
    }

    /** Frees every block of a deleted file. */
    void freeAll(FileNode node) {
        for (long b : node.blocks.truncate(0)) {
            allocator.free(b);
        }
        node.size = 0;
    }

    /**
     * Zeroes {@code [from, to)} where it lies in blocks that existed before this write: the tail of the
     * old last block (which may hold bytes from before a truncation). New blocks are zeroed by
     * {@link #transfer} or, for holes, here.
     */
    private void zeroGap(FileNode node, long from, long to, int firstNew) {
        long block = from / blockBytes;
        if (block < firstNew && from % blockBytes != 0) {
            long blockEnd = (block + 1) * blockBytes;
            int len = (int) (Math.min(to, blockEnd) - from);
            space.write(node.blocks.get((int) block), (int) (from % blockBytes), ByteBuffer.allocate(len));
        }
        if (!space.tracksAllocation()) {
            // whole new blocks lying entirely in the gap: a device block holds old bytes
            for (long i = Math.max(firstNew, (from + blockBytes - 1) / blockBytes); i < to / blockBytes; i++) {
                space.writeRun(node.blocks.get((int) i), ByteBuffer.allocate(blockBytes));
            }
        }
    }

    /**
     * Moves {@code buffer.remaining()} bytes between {@code buffer} and the file at {@code position}.
     * A read hands all its parts to the backing at once ({@link BlockSpace#readAll}), so a backing can
     * fetch the blocks of one read together. For writes, a partially covered block at index
     * {@code >= firstNew} on a device is written whole (zeros around the data) since its old bytes are
     * not the file's.
     */
    private void transfer(FileNode node, long position, ByteBuffer buffer, boolean write, int firstNew) {
        BlockList blocks = node.blocks;
        List<BlockSpace.Part> reads = write ? null : new ArrayList<>(4);
        long pos = position;
        while (buffer.hasRemaining()) {
            int index = (int) (pos / blockBytes);
            int offset = (int) (pos % blockBytes);
            int len = Math.min(blockBytes - offset, buffer.remaining());
            if (offset == 0 && len == blockBytes) {
                int fullBlocks = buffer.remaining() / blockBytes;
                int run = blocks.runLength(index, fullBlocks);
                ByteBuffer part = buffer.slice(buffer.position(), run * blockBytes);
                if (write) {
                    space.writeRun(blocks.get(index), part);
                } else {
                    reads.add(new BlockSpace.Part(blocks.get(index), 0, part));
                }
                len = run * blockBytes;
            } else {
                ByteBuffer part = buffer.slice(buffer.position(), len);
                if (!write) {
                    reads.add(new BlockSpace.Part(blocks.get(index), offset, part));
                } else if (index >= firstNew && !space.tracksAllocation()) {
                    ByteBuffer whole = ByteBuffer.allocate(blockBytes);
                    whole.put(offset, part, 0, len);
                    space.writeRun(blocks.get(index), whole);
                } else {
                    space.write(blocks.get(index), offset, part);
                }
            }
            buffer.position(buffer.position() + len);
            pos += len;
        }
        if (!write) {
            space.readAll(reads);
        }
    }
}
