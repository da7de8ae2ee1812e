package io.most;

import io.most.errors.OutOfSpaceException;

import io.most.errors.CorruptPageException;

import io.most.errors.BatchReadException;

/**
 * A page store over DRAM, optional persistent memory and a block device: the storage API a
 * database or cache embeds. Pages are fixed-size, identified by dense ids from {@link #allocate()},
 * and hold {@link #payloadSize()} bytes of the caller's data (the rest is a self-describing header:
 * page id, LSN, checksum, format version).
 *
 * <pre>{@code
 * try (PageStore store = PageStore.open(PageStoreConfig.builder()
 *         .blockDevice(DirectFileDevice.open(Path.of("data.most"), 1L << 30))
 *         .dramBytes(64 << 20)
 *         .pm(Path.of("/mnt/pmem/most.pm"), 256 << 20)
 *         .build())) {
 *     long id = store.allocate();
 *     try (Page page = store.write(id)) {
 *         page.payload().set(ValueLayout.JAVA_INT, 0, 7);
 *         page.markDirty(1);
 *     }
 *     PageCursor cursor = store.cursor();    // the latch-free reader: one per thread, kept
 *     int seven = store.readOptimistic(cursor, id, p -> p.get(ValueLayout.JAVA_INT, 0));
 *     if (cursor.begin(id)) {                 // or by hand, allocating nothing:
 *         int same = cursor.getInt(0);
 *         boolean counts = cursor.validate();  // if false, a writer raced: read(id) under a latch
 *     }
 *     store.checkpoint();
 * }
 * }</pre>
 *
 * <p><b>Reading.</b> Two ways, one under the other: {@link #read} and {@link #write} pin a page under a
 * latch (the only way to write, and the one that loads a page that is not buffered); a
 * {@link PageCursor} reads a buffered page without a latch and validates afterwards, falling back to
 * {@link #read} when the page is not buffered or a writer raced. {@link #readOptimistic} is that
 * pattern for a lambda over the whole payload, and {@link #readAll} for many pages at once.
 *
 * <p><b>Concurrency.</b> All methods are thread-safe. {@link #read} takes a shared latch and
 * {@link #write} an exclusive one on the page, held until the {@link Page} is closed; a thread that
 * holds latches on several pages must acquire them in a consistent order, as in any B-tree.
 *
 * <p><b>Durability.</b> A page is durable once it reached persistent memory or was written and
 * forced to the block device; {@link #flush()} and {@link #checkpoint()} make every dirty page
 * durable. Before a dirty page with LSN {@code L} reaches PM or the block device, the store calls
 * {@link WalHook#flushUpTo(long) flushUpTo(L)}. After a crash, {@link #open} restores every durable
 * page (including the PM buffer's contents) and reports a torn or corrupt page as
 * {@link CorruptPageException} instead of returning it.
 */
public interface PageStore extends AutoCloseable {

    /** Opens (creating or recovering) the store described by {@code config}. */
    static PageStore open(PageStoreConfig config) {
        return PageStoreImplementation.open(config);
    }

    /**
     * The block-device capacity a store of {@code pages} pages of {@code pageSize} bytes needs: the
     * pages plus the store's superblocks, allocation bitmaps and double-write slots.
     */
    static long blockDeviceBytesFor(long pages, int pageSize) {
        return PageStoreImplementation.blockDeviceBytesFor(pages, pageSize);
    }

    /** Bytes per page on every tier, header included. */
    int pageSize();

    /** Bytes of caller data per page. */
    int payloadSize();

    /** Number of page ids the block device can hold. */
    long pageCapacity();

    /**
     * Allocates a page and returns its id; its payload reads as zeros. The allocation is durable
     * before the page first reaches PM or the block device, and at the next {@link #checkpoint()}.
     *
     * @throws OutOfSpaceException if every page id is allocated
     */
    long allocate();

    /**
     * Allocates the page {@code pageId}; its payload reads as zeros. For an engine that logs its own
     * allocations: its recovery redoes a logged allocation that the store had not made durable before a
     * crash, at the id the log names. Durable like {@link #allocate()}.
     *
     * @throws IllegalArgumentException if {@code pageId} is allocated already or outside
     *                                  {@code [0, pageCapacity())}
     */
    void allocate(long pageId);

    /**
     * Frees a page. The page must not be latched. Durable when it returns: the allocation state is
     * persisted before any copy of the page is destroyed, so a crash finds the page either allocated
     * with its contents or free, never allocated and emptied. This costs one allocation-bitmap write and
     * two forces per call.
     *
     * @throws IllegalArgumentException if the page is not allocated
     */
    void free(long pageId);

    /** Whether {@code pageId} is allocated. */
    boolean isAllocated(long pageId);

    /**
     * Pins the page under a shared latch, loading it from PM or the block device if needed.
     *
     * @throws IllegalArgumentException if the page is not allocated
     * @throws CorruptPageException     if its stored copy fails its checksum
     */
    Page read(long pageId);

    /** Pins the page under an exclusive latch; see {@link #read(long)}. */
    Page write(long pageId);

    /**
     * Loads the pages {@code pageIds[from..to)} that are not buffered with one batch of block-device
     * reads ({@link io.most.device.BlockDevice#transferAll}): a device with a queue (io_uring) keeps them
     * all in flight at once, where single {@link #read}s would wait for one read after another. A hint
     * for pages about to be read (the next leaves of a scan, the keys of a multi-get): the pages are
     * left buffered, unlatched, in the tier a {@link #read} miss would load them into.
     *
     * <p>Per page, the outcome is the one a {@link #read} of it would have: a page already buffered (in
     * DRAM or PM), or being loaded, freed or evicted by another thread at that moment (its page lock
     * busy), is skipped, and its own reader loads it; a page that is not allocated, whose read fails or
     * whose stored copy is torn or corrupt is not loaded, and is named in the {@link BatchReadException}
     * thrown once every other page of the batch was loaded. Duplicate ids are loaded once. A batch
     * larger than a quarter of the DRAM pool is loaded in several device batches (each reserves its
     * frames before its reads start, so that a batch never needs more frames than can be evicted).
     *
     * <p>Thread safety is that of {@link #read}: each page is loaded under its page lock into a frame
     * latched exclusively until the page is mapped, so a concurrent read, write or free of the same
     * page waits for the load or finds the page loaded, never a half-read frame. No latch is held when
     * this returns.
     *
     * @return how many pages this call loaded
     * @throws IndexOutOfBoundsException if {@code [from, to)} is not a range of {@code pageIds}
     * @throws IllegalArgumentException  if an id is outside {@code [0, pageCapacity())} (nothing is loaded)
     * @throws BatchReadException        if some pages could not be loaded (every other one was)
     * @throws IllegalStateException     if the store is closed
     */
    int prefetch(long[] pageIds, int from, int to);

    /** {@link #prefetch(long[], int, int)} of every id of {@code pageIds}. */
    default int prefetch(long... pageIds) {
        return prefetch(pageIds, 0, pageIds.length);
    }

    /**
     * Reads many pages: {@link #prefetch(long[], int, int) prefetches} them all with one batch of
     * device reads, then runs {@code reader} on each page's payload in turn, as
     * {@link #readOptimistic(PageCursor, long, PageReader)} does, with one cursor for all (no latch held
     * across pages, so it never holds two latches at once), and returns the results in the order of
     * {@code pageIds} (one per id, duplicates included).
     *
     * @throws IllegalArgumentException if an id is outside {@code [0, pageCapacity())} (nothing is read)
     * @throws BatchReadException       if some pages could not be read: every other page was, and each
     *                                  failed page is named with the error a {@link #read} of it throws
     * @throws IllegalStateException    if the store is closed
     */
    <R> java.util.List<R> readAll(long[] pageIds, PageReader<R> reader);

    /**
     * Reads a page without taking a latch when it is buffered: {@link #readOptimistic(PageCursor, long,
     * PageReader) readOptimistic} with a cursor made for this call ({@link #cursor()}). A convenience: the
     * cursor is one more object per call, so a thread that reads often keeps a cursor and passes it.
     */
    default <R> R readOptimistic(long pageId, PageReader<R> reader) {
        return readOptimistic(cursor(), pageId, reader);
    }

    /**
     * Reads a page with {@code cursor} and no latch when it is buffered: runs {@code reader} on the
     * cursor's {@link PageCursor#payload() payload}, then validates that no writer, eviction or
     * migration intervened, and runs it again if one did. Falls back to {@link #read(long)}'s shared
     * latch (which loads the page, waits for a writer, or throws) when the page is not buffered or after
     * eight failed validations (enough to ride out a few writers, few enough that a page written
     * without pause is read under the latch rather than spun on). A reader that throws on bytes that
     * then fail validation is run again; one that throws on a validated page, or under the latch,
     * propagates. Allocates nothing but what {@code reader} does. So the reader must be side-effect
     * free and must not trust what it reads to be consistent ({@link PageReader}).
     *
     * @param cursor a cursor of this store ({@link #cursor()}), owned by the calling thread and not in
     *               the middle of another read (a {@code reader} that reads more pages uses another)
     * @throws IllegalArgumentException if the page is not allocated or outside the store's capacity
     * @throws CorruptPageException     if the page must be loaded and its stored copy fails its checksum
     * @throws IllegalStateException    if the store is closed
     */
    default <R> R readOptimistic(PageCursor cursor, long pageId, PageReader<R> reader) {
        for (int attempt = 0; attempt < 8; attempt++) {
            if (!cursor.begin(pageId)) {
                break; // not buffered, or being written: the latch loads or waits
            }
            R result = null;
            RuntimeException failure = null;
            try {
                result = reader.read(cursor.payload());
            } catch (RuntimeException e) {
                failure = e; // thrown by an inconsistent read? only validation can tell
            }
            if (cursor.validate()) {
                if (failure != null) {
                    throw failure;
                }
                return result;
            }
        }
        try (Page page = read(pageId)) {
            return reader.read(page.payload());
        }
    }

    /**
     * A new reusable latch-free reader ({@link PageCursor}) for one thread: the one optimistic read of
     * this store. It holds the pools' metadata and memory itself, so that a hit loads no store object and
     * its validation re-reads the one latch word it found. Make one per thread and keep it; it allocates
     * nothing after.
     *
     * @throws IllegalStateException if the store is closed
     */
    PageCursor cursor();

    /** Writes every dirty DRAM page to PM or the block device and forces the block device. */
    void flush();

    /** {@link #flush()}, then makes the allocation state durable: every page is durable after it returns. */
    void checkpoint();

    /** A snapshot of the store's counters. */
    PageStoreStats stats();

    /** The migration policy in force (changed over time by the adaptive tuner if enabled). */
    MigrationPolicy policy();

    /** Replaces the migration policy (the adaptive tuner, if enabled, continues from it). */
    void setPolicy(MigrationPolicy policy);

    /** Checkpoints, then releases every resource, including the devices given in the configuration. */
    @Override
    void close();
}
