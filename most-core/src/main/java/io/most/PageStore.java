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
 *     int seven = store.readOptimistic(id, p -> p.get(ValueLayout.JAVA_INT, 0));
 *     store.checkpoint();
 * }
 * }</pre>
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
     * {@link #readOptimistic} does (no latch held across pages, so it never holds two latches at once),
     * and returns the results in the order of {@code pageIds} (one per id, duplicates included).
     *
     * @throws IllegalArgumentException if an id is outside {@code [0, pageCapacity())} (nothing is read)
     * @throws BatchReadException       if some pages could not be read: every other page was, and each
     *                                  failed page is named with the error a {@link #read} of it throws
     * @throws IllegalStateException    if the store is closed
     */
    <R> java.util.List<R> readAll(long[] pageIds, PageReader<R> reader);

    /**
     * Reads a page without taking a latch when it is buffered: runs {@code reader} on the payload,
     * then validates that no writer or eviction intervened, and runs it again if one did. Falls back
     * to a shared latch after repeated conflicts or when the page must be loaded. A convenience over
     * {@link #tryOptimisticRead}, {@link #optimisticPayload} and {@link #validate}; a hot loop that
     * must not allocate (a capturing lambda does) uses those directly.
     */
    <R> R readOptimistic(long pageId, PageReader<R> reader);

    /**
     * Starts a latch-free read of a buffered page, as {@link java.util.concurrent.locks.StampedLock#tryOptimisticRead()}
     * does for a lock: returns a nonzero stamp if the page is in DRAM or PM and no writer holds it,
     * else 0 (not buffered, not allocated, or being written: use {@link #read(long)}, which loads,
     * waits or throws; also for a page in PM while non-hierarchical caching sends a share of PM's
     * reads to the block device, {@link PageStoreConfig#nonHierarchicalCaching()}). Takes no latch, allocates nothing, and counts a buffer hit ({@link #validate}
     * takes it back if the stamp fails, so a retried read counts once).
     *
     * <pre>{@code
     * long stamp = store.tryOptimisticRead(pageId);
     * if (stamp != 0) {
     *     long value = store.optimisticPayload(stamp).get(ValueLayout.JAVA_LONG, offset);
     *     if (store.validate(stamp)) {
     *         return value;               // the page's own bytes, as of one instant
     *     }
     * }
     * try (Page page = store.read(pageId)) { // missed or raced with a writer: latch
     *     return page.payload().get(ValueLayout.JAVA_LONG, offset);
     * }
     * }</pre>
     *
     * Until {@link #validate} confirms the stamp, what was read may be torn, another version of the
     * page, or (if the page was evicted or freed meanwhile) bytes of another page: bound every loop and
     * index by the payload size and act on nothing before validating.
     *
     * @throws IllegalArgumentException if {@code pageId} is outside {@code [0, pageCapacity())}
     * @throws IllegalStateException    if the store is closed
     */
    long tryOptimisticRead(long pageId);

    /**
     * The read-only payload of the frame a nonzero stamp from {@link #tryOptimisticRead} names
     * ({@link #payloadSize()} bytes, DRAM or PM). No copy and no allocation: a view of the frame
     * itself, whose contents count only once {@link #validate validated}.
     *
     * @throws IllegalArgumentException if {@code stamp} is 0 or was not issued by this store
     */
    java.lang.foreign.MemorySegment optimisticPayload(long stamp);

    /**
     * Reads the {@code long} (native byte order, any alignment) at byte {@code offset} of the payload
     * of the page a nonzero stamp from {@link #tryOptimisticRead} names: the value
     * {@code optimisticPayload(stamp).get(ValueLayout.JAVA_LONG_UNALIGNED, offset)} reads, addressed in
     * the buffer pool directly instead of through a per-frame segment (the fastest hit path). Takes no
     * latch and allocates nothing; the value counts only once {@link #validate} confirms the stamp.
     *
     * <pre>{@code
     * long stamp = store.tryOptimisticRead(pageId);
     * if (stamp != 0) {
     *     long value = store.optimisticLong(stamp, offset);
     *     if (store.validate(stamp)) {
     *         return value;
     *     }
     * }
     * }</pre>
     *
     * The offset is checked against the payload, so a read through a stamp never reaches another
     * frame's bytes, whatever the stamp's page has become since.
     *
     * @throws IllegalArgumentException  if {@code stamp} is 0 or was not issued by this store
     * @throws IndexOutOfBoundsException if {@code offset < 0} or {@code offset + 8 > payloadSize()}
     * @throws IllegalStateException     if the store is closed
     */
    long optimisticLong(long stamp, long offset);

    /**
     * {@link #optimisticLong} for an {@code int} (4 bytes, native byte order, any alignment).
     *
     * @throws IllegalArgumentException  if {@code stamp} is 0 or was not issued by this store
     * @throws IndexOutOfBoundsException if {@code offset < 0} or {@code offset + 4 > payloadSize()}
     * @throws IllegalStateException     if the store is closed
     */
    int optimisticInt(long stamp, long offset);

    /**
     * {@link #optimisticLong} for one byte.
     *
     * @throws IllegalArgumentException  if {@code stamp} is 0 or was not issued by this store
     * @throws IndexOutOfBoundsException if {@code offset} is not in {@code [0, payloadSize())}
     * @throws IllegalStateException     if the store is closed
     */
    byte optimisticByte(long stamp, long offset);

    /**
     * Copies {@code length} payload bytes from {@code offset} of the page a nonzero stamp names into
     * {@code destination} at {@code index} (e.g. a key to compare); see {@link #optimisticLong}. The
     * copy may be torn until {@link #validate} confirms the stamp.
     *
     * @throws IllegalArgumentException  if {@code stamp} is 0 or was not issued by this store
     * @throws IndexOutOfBoundsException if the range is not inside the payload or the array
     * @throws IllegalStateException     if the store is closed
     */
    void optimisticCopy(long stamp, long offset, byte[] destination, int index, int length);

    /**
     * Whether the page of a stamp from {@link #tryOptimisticRead} is still in the same frame, unchanged,
     * since the stamp was issued: no writer latched it, and it was not evicted, migrated or freed. If
     * so, every read of {@link #optimisticPayload} and of the typed reads ({@link #optimisticLong},
     * {@link #optimisticInt}, {@link #optimisticByte}, {@link #optimisticCopy}) made before this call saw
     * that version of the page.
     * Returns false for stamp 0. May be called several times for one stamp (e.g. at each step of a
     * search).
     *
     * @throws IllegalArgumentException if {@code stamp} was not issued by this store
     */
    boolean validate(long stamp);

    /**
     * A new reusable latch-free reader ({@link PageCursor}) for one thread: the
     * optimistic read of {@link #tryOptimisticRead} without a stamp to decode, holding the pools'
     * metadata and memory itself, so that a hit loads no store object and its validation re-reads the
     * one latch word it found. Make one per thread and keep it; it allocates nothing after.
     */
    PageCursor cursor();

    /**
     * A new reusable latched reader ({@link PagePin}) for one thread: {@link #read}'s
     * shared latch and the cursor's typed reads, with no {@link Page} handle, so it allocates nothing
     * whatever the JIT inlines. Make one per thread and keep it.
     */
    PagePin pagePin();

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
