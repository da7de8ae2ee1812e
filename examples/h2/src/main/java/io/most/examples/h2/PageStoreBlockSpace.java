package io.most.examples.h2;

import io.most.Page;
import io.most.PageStore;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * A {@link BlockSpace} in a MOST {@link PageStore}: block {@code i} is the payload of page id
 * {@code i}, so H2's file pages live in Spitfire's DRAM and PM tiers and migrate by its policy. Reads
 * pin a page under a shared latch, writes under an exclusive one (the latch serializes partial writes
 * of one block). Claiming a block allocates its page id, which reads as zeros; {@link #force()} is the
 * store's {@link PageStore#flush()}: every dirty page reaches PM or the forced block device.
 */
final class PageStoreBlockSpace implements BlockSpace {
    /**
     * The LSN given to every changed page. This backing has no write-ahead log (H2's MVStore is
     * append-only and recovers by itself), so there is no log position to wait for.
     */
    private static final long NO_LOG = 1;

    private final PageStore store;
    private final int blockBytes;

    PageStoreBlockSpace(PageStore store) {
        this.store = store;
        this.blockBytes = store.payloadSize();
    }

    @Override
    public int blockBytes() {
        return blockBytes;
    }

    @Override
    public long blockCount() {
        return store.pageCapacity();
    }

    @Override
    public void read(long block, int offset, ByteBuffer dst) {
        int n = dst.remaining();
        try (Page page = store.read(block)) {
            dst.put(page.payload().asSlice(offset, n).asByteBuffer());
        }
    }

    @Override
    public void write(long block, int offset, ByteBuffer src) {
        int n = src.remaining();
        try (Page page = store.write(block)) {
            MemorySegment.copy(MemorySegment.ofBuffer(src), 0, page.payload(), offset, n);
            page.markDirty(NO_LOG);
        }
        src.position(src.position() + n);
    }

    @Override
    public void readRun(long first, ByteBuffer dst) {
        for (long block = first; dst.hasRemaining(); block++) {
            read(block, 0, dst.slice(dst.position(), blockBytes));
            dst.position(dst.position() + blockBytes);
        }
    }

    @Override
    public void writeRun(long first, ByteBuffer src) {
        for (long block = first; src.hasRemaining(); block++) {
            write(block, 0, src.slice(src.position(), blockBytes));
            src.position(src.position() + blockBytes);
        }
    }

    @Override
    public void claim(long block) {
        store.allocate(block);
    }

    @Override
    public boolean tracksAllocation() {
        return true;
    }

    @Override
    public void release(long block) {
        store.free(block);
    }

    @Override
    public boolean inUse(long block) {
        return store.isAllocated(block);
    }

    @Override
    public void force() {
        store.flush();
    }

    @Override
    public String describe() {
        return "page store (" + store.pageSize() + "-byte pages, " + blockBytes + " payload bytes, "
                + store.pageCapacity() + " pages)";
    }

    @Override
    public void close() {
        store.close();
    }
}
