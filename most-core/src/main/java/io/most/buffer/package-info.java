/**
 * The Spitfire buffer manager: DRAM and PM frame pools over a block device
 * ({@link io.most.buffer.SpitfireBufferManager}, the {@link io.most.PageStore} implementation).
 *
 * <h2>Pieces</h2>
 * <ul>
 *   <li>{@code FramePool}: frames, one 64-byte metadata record per frame (latch word, page id, LSN,
 *       dirty flag, access frequency), the free list; victims come from a {@code Replacement}
 *       ({@code ClockReplacement}, {@code S3FifoReplacement} with its {@code GhostSet}).</li>
 *   <li>{@code OptimisticStamp}: the layout of the stamps of the latch-free read API.</li>
 *   <li>{@code BlockStore} (superblocks, allocation bitmap, page images on the block device),
 *       {@code PmArea} (the PM file, sealing frames durably), {@code PageHeader} (the self-describing
 *       page header and its checks), {@code WriteSequence}.</li>
 *   <li>{@code AdmissionQueue} (HyMEM), {@code BackgroundCleaner}, {@code AnnealingTuner}, counters.</li>
 * </ul>
 *
 * <h2>Lock order</h2>
 * Three kinds of locks, from outer to inner:
 * <ol>
 *   <li><b>Page locks</b> (4096 striped {@code ReentrantLock}s, by page id): serialize changes of a
 *       page's mapping (load, migration, write-back, eviction, free). Methods that need one say so
 *       and assert it ({@code assert lockOf(pageId).isHeldByCurrentThread()}).</li>
 *   <li><b>Frame latches</b> (the latch word of a frame: shared, exclusive, version).</li>
 *   <li><b>Leaf locks</b>, held for a few instructions and never while waiting for anything: the
 *       free-list monitor of a {@code FramePool}, the queue lock of {@code S3FifoReplacement}, the
 *       allocation bitmap's and the block store's internal locks.</li>
 * </ol>
 * Rules that make it deadlock-free:
 * <ul>
 *   <li>While holding a page lock, a thread only <em>tries</em> frame latches and other page locks
 *       ({@code tryLatchExclusive}, {@code tryLock}); it never waits for one. (Eviction picks a victim
 *       frame by trying its latch, then tries the victim page's lock, and gives the frame back with
 *       {@code keep} if that fails.)</li>
 *   <li>Blocking waits for a frame latch happen with no page lock held (e.g. the write-back of a frame
 *       a writer holds drops the page lock, waits for the latch, and starts over).</li>
 *   <li>A replacement policy's {@code victim()} runs under its queue lock and only tries latches.</li>
 *   <li>So the only cycles possible are between callers that hold latched pages in inconsistent
 *       order: the caller's contract, as in any B-tree. When every frame is latched, allocation gives
 *       up with {@link io.most.OutOfSpaceException} instead of waiting forever.</li>
 * </ul>
 *
 * <h2>What the version of a frame proves</h2>
 * Every change of a frame's page, contents or mapping happens under its exclusive latch, and every
 * exclusive release bumps the frame's version. So an optimistic reader that saw version {@code v} and
 * the frame's page id before reading, and {@code v} again after (with no exclusive holder), read the
 * bytes of that page at one version. A PM stamp also re-checks the DRAM mapping after taking the
 * version, because PM->DRAM migration publishes the DRAM copy before it releases the PM latch.
 * Only the latch word needs ordering (an acquire load, then a load fence before the re-read): the
 * mapping is read plain before it (a stale frame number fails the page-id check) and the page id
 * plain after it. The latched hit reads the mapping plain too and checks it again under the latch,
 * whose atomic add orders the re-check.
 *
 * <h2>PM persistence rules</h2>
 * (docs/ARCHITECTURE.md, "Persistence protocol", gives each rule's cost.)
 * <ol>
 *   <li><b>WAL first:</b> before a dirty page with LSN {@code L} reaches PM or the block device,
 *       {@code WalHook.flushUpTo(L)} runs.</li>
 *   <li><b>Allocation first:</b> a changed allocation bitmap is persisted before any page reaches PM or
 *       the block device.</li>
 *   <li><b>Seal order</b> ({@code PmArea.sealDurably}): clear the commit word, write the header fields,
 *       persist the frame, store the commit word with one aligned 8-byte store, persist the header. A
 *       crash before the commit word leaves an unsealed frame, which never outranks an intact copy.</li>
 *   <li><b>No overwrite of the only durable copy:</b> a PM frame newer than the block device is
 *       updated out of place (fresh frame sealed, published, then the old one invalidated); a frame
 *       equal to the block device's copy may be written in place.</li>
 *   <li><b>Invalidate after the newer copy is durable:</b> a PM copy made stale by a write-back to the
 *       block device is invalidated only after the block device is forced.</li>
 *   <li><b>Free is durable before a copy goes:</b> {@code free()} persists the bitmap before it drops
 *       the page's frames.</li>
 * </ol>
 * Recovery verifies before it trusts: a frame's page id and write sequence are read only once its
 * header checksum verifies; for each allocated page the valid image with the highest write sequence
 * wins.
 */
package io.most.buffer;
