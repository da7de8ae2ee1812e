package io.most.examples.h2;

import io.most.errors.BatchReadException;
import io.most.Page;
import io.most.PageCursor;
import io.most.PageStore;
import io.most.PageStoreStats;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A {@link BlockSpace} in a MOST {@link PageStore}: block {@code i} is the payload of page id
 * {@code i}, so H2's file pages live in Spitfire's DRAM and PM tiers and migrate by its policy. Reads
 * pin a page under a shared latch, writes under an exclusive one (the latch serializes partial writes
 * of one block). Claiming a block allocates its page id, which reads as zeros; {@link #force()} is the
 * store's {@link PageStore#flush()}: every dirty page reaches PM or the forced block device.
 *
 * <p><b>Reads of several blocks.</b> H2 reads a whole B-tree page at once, often 16-24 KiB, so one
 * read spans several blocks. The blocks in DRAM or PM are copied with an optimistic read (no latch);
 * the ones that must come from the block device are loaded together by one
 * {@link PageStore#prefetch(long[], int, int) batch read} (one submission of every request, io_uring
 * underneath where the device has it), so a read costs about one device latency however many of its
 * blocks miss, instead of one latency per block, and without a thread per request.
 */
final class PageStoreBlockSpace implements BlockSpace {
    /**
     * The LSN given to every changed page. This backing has no write-ahead log (H2's MVStore is
     * append-only and recovers by itself), so there is no log position to wait for.
     */
    private static final long NO_LOG = 1;

    private final PageStore store;
    private final int blockBytes;
    /** Each reading thread's latch-free reader of the store, made once: a read of buffered blocks allocates none. */
    private final ThreadLocal<PageCursor> cursors;

    PageStoreBlockSpace(PageStore store) {
        this.store = store;
        this.blockBytes = store.payloadSize();
        this.cursors = ThreadLocal.withInitial(store::cursor);
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

    /**
     * Copies the blocks that are in DRAM or PM without a latch and fetches the others concurrently
     * (see the class comment). Every part is filled when this returns; a failed fetch is rethrown
     * (the first, with the others suppressed) after every fetch has ended.
     */
    @Override
    public void readAll(List<Part> parts) {
        List<Part> missing = null; // a read whose blocks are all buffered allocates no list
        PageCursor cursor = cursors.get();
        for (Part part : parts) {
            ByteBuffer buffer = part.buffer();
            long block = part.block();
            int offset = part.offset();
            for (int at = buffer.position(); at < buffer.limit(); block++, offset = 0) {
                int n = Math.min(blockBytes - offset, buffer.limit() - at);
                ByteBuffer slice = buffer.slice(at, n);
                if (!copyBuffered(cursor, block, offset, slice)) {
                    if (missing == null) {
                        missing = new ArrayList<>(4);
                    }
                    missing.add(new Part(block, offset, slice));
                }
                at += n;
            }
            buffer.position(buffer.limit());
        }
        if (missing == null) {
            return;
        }
        if (missing.size() == 1) {
            Part only = missing.getFirst();
            read(only.block(), only.offset(), only.buffer());
        } else {
            fetchAll(missing);
        }
    }

    /**
     * Copies {@code dst.remaining()} bytes of the block at {@code offset} if its page is buffered and
     * unchanged during the copy; false (with {@code dst} possibly partly written) otherwise.
     */
    private static boolean copyBuffered(PageCursor cursor, long block, int offset, ByteBuffer dst) {
        if (!cursor.begin(block)) {
            return false;
        }
        MemorySegment.copy(cursor.payload(), offset, MemorySegment.ofBuffer(dst), 0, dst.remaining());
        return cursor.validate();
    }

    /**
     * Loads the missing blocks with one batch read, then copies each (now a hit, unless evicted in
     * between, which costs that block one more read). A block the batch could not read fails the
     * whole read with the error a single read of it throws (the first by block, the others
     * suppressed), after every other block of the batch was loaded.
     */
    private void fetchAll(List<Part> missing) {
        long[] blocks = new long[missing.size()];
        for (int i = 0; i < blocks.length; i++) {
            blocks[i] = missing.get(i).block();
        }
        try {
            store.prefetch(blocks, 0, blocks.length);
        } catch (BatchReadException e) {
            RuntimeException first = null;
            for (RuntimeException failure : e.failures().values()) {
                if (first == null) {
                    first = failure;
                } else {
                    first.addSuppressed(failure);
                }
            }
            throw first;
        }
        for (Part m : missing) {
            read(m.block(), m.offset(), m.buffer());
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
    public Optional<PageStoreStats> pageStoreStats() {
        return Optional.of(store.stats());
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
