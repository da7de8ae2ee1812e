/**
 * The Spitfire buffer manager: DRAM and PM frame pools over a block device
 * ({@link io.most.buffer.SpitfireBufferManager}, the {@link io.most.PageStore} implementation).
 *
 * <h2>Pieces</h2>
 * <ul>
 *   <li>{@code SpitfireBufferManager}, the facade: opens, wires, closes, and answers {@code PageStore}
 *       through {@code PageAccess} (its superclass: the read protocol of latched pins, with
 *       {@code PinnedFrame}, and of the latch-free {@code FrameCursor}), {@code PageLoader}
 *       (a miss: loads from the block device, migrations between PM and DRAM) and
 *       {@code PageAllocator} (allocate and free).</li>
 *   <li>{@code FramePool}: frames and their memory, the free list; victims come from a
 *       {@code Replacement} ({@code ClockReplacement}, {@code S3FifoReplacement} with its
 *       {@code GhostSet}). Its metadata is one 64-byte record per frame ({@code FrameRecords}: latch
 *       word, page id, LSN, dirty flag, access frequency), whose latch word follows
 *       {@code LatchWord}'s protocol.</li>
 *   <li>{@code PmWriteCommit}: the commit of a write to a PM page (redo record, delta frame or whole
 *       page, after the WAL) and the switch to its private copy.</li>
 *   <li>{@code BlockStore} (superblocks, allocation bitmap, page images on the block device),
 *       {@code PmArea} (the PM file, sealing frames durably), {@code PageHeader} (the self-describing
 *       page header and its checks), {@code WriteSequence}.</li>
 *   <li>{@code PmRedoLog} (in-place PM updates that persist only their changed lines, through redo
 *       records in the PM superblock page) and {@code DirtyLines} (which 64-byte lines changed).</li>
 *   <li>Non-hierarchical caching of PM (Orthus, FAST '21; {@code PageStoreConfig.nonHierarchicalCaching}):
 *       {@code LoadAdmission} (the share of reads of clean PM pages sent to the block device, and whether
 *       misses may enter PM), {@code OffloadedRead} (such a read, into a DRAM frame, never of a dirty
 *       page), {@code NhcController} (Algorithm 1's two states, 2% steps), {@code NhcProbe} (PM's and the
 *       block tier's latency and the hit rate, per interval) and {@code NhcTuner} (its thread).</li>
 *   <li>{@code AdmissionQueue} (HyMEM, for clean and dirty DRAM evictions), {@code BackgroundCleaner}
 *       (bounds dirty pages in DRAM and in PM), {@code DoubleWriteArea} (batched by PM eviction and
 *       cleaning), {@code AnnealingTuner}, counters.</li>
 * </ul>
 *
 * <h2>Lock order</h2>
 * Three kinds of locks, from outer to inner:
 * <ol>
 *   <li><b>Page locks</b> (4096 striped {@code ReentrantLock}s, by page id): serialize changes of a
 *       page's mapping (load, migration, write-back, eviction, free, allocation). Methods that need one say so
 *       and assert it ({@code assert locks.of(pageId).isHeldByCurrentThread()}).</li>
 *   <li><b>Frame latches</b> (the latch word of a frame, {@code LatchWord}: shared, exclusive, version).</li>
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
 *       up with {@link io.most.errors.OutOfSpaceException} instead of waiting forever.</li>
 * </ul>
 *
 * <h2>What the version of a frame proves</h2>
 * Every change of a frame's page, contents or mapping happens under its exclusive latch, and every
 * exclusive release bumps the frame's version. So an optimistic reader that saw version {@code v} and
 * the frame's page id before reading, and {@code v} again after (with no exclusive holder), read the
 * bytes of that page at one version. A cursor's PM hit also re-checks the DRAM mapping after taking the
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
 *   <li><b>The only durable copy is never left torn:</b> a write of a PM frame {@code m} persisted
 *       in every line (newer than the block device, or written back to it and still mapped:
 *       {@code FramePool.isPersisted}) goes to a private copy {@code r}; on close only the 64-byte lines that
 *       differ are persisted ({@code PmRedoLog.update}): those lines of {@code r}, then a redo record
 *       naming {@code m}, {@code r}, the line bitmap, the new LSN, write sequence and payload CRC
 *       (commit word stored last, one 8-byte store), then the lines copied into {@code m} with its new
 *       header, then the record is retired. An update changing more than half the page, or finding
 *       every slot busy, is instead sealed whole out of place (fresh frame sealed, published, then the
 *       old one invalidated). The write-back of a dirty DRAM page over its persisted PM frame is the
 *       same line update, its lines copied from DRAM into a free frame {@code r}.</li>
 *   <li><b>A write over the block device's version persists only its lines</b> ({@code PmDeltaTable}):
 *       a write of a frame {@code m} that equals a version on the block device (loaded, admitted or
 *       written back clean, never persisted as such) or is a delta frame over one goes to a private
 *       copy {@code r}, sealed out of place as a <i>delta frame</i>: the lines that differ from that
 *       version (with {@code m}'s own durable lines if it is a delta frame) are persisted, then a
 *       descriptor in the table after the frames (page, {@code r}'s write sequence, the block device's
 *       sequence, the line bitmap), then {@code r}'s commit word; {@code r} is published in {@code m}'s
 *       place (keeping its frequency and queue place) and {@code m} invalidated. More than half the
 *       page is sealed whole instead. The write-back of a dirty DRAM page over such a PM frame is a
 *       delta frame too, the DRAM page copied into a free frame. A delta frame is never a redo
 *       record's base, and after its write-back it is clean but not persisted.</li>
 *   <li><b>Invalidate after the newer copy is durable:</b> a PM copy made stale by a write-back to the
 *       block device is invalidated only after the block device is forced.</li>
 *   <li><b>Free is durable before a copy goes:</b> {@code free()} persists the bitmap before it drops
 *       the page's frames.</li>
 *   <li><b>An id comes back fresh:</b> {@code allocate()} claims the id in the bitmap and maps its
 *       zeroed frame under one hold of the page lock, under which loads check the bitmap: a reader
 *       racing a free and the re-allocation never loads the freed page's old image.</li>
 * </ol>
 * Recovery verifies before it trusts: a frame's page id and write sequence are read only once its
 * header checksum verifies; for each allocated page the valid image with the highest write sequence
 * wins.
 *
 * <h2>Why persisting only the changed lines keeps a torn frame from being served</h2>
 * Recovery replays every committed redo record before it scans the frames. Before a record's commit
 * word is durable, {@code m} has not been touched (so it holds the previous version, intact) and
 * {@code r} has no magic (a free frame). Once it is durable, the lines it names are durable in
 * {@code r} (persisted before it), and every other line of {@code m} is the previous version's,
 * durable since that version was sealed: by induction every frame newer than the block device has
 * all its lines persisted (sealed whole, recovered as read, or rebuilt by a replay that persists the
 * whole frame), and a write-back to the block device changes none of them, so a written-back frame
 * is as good a base (the record's write sequence is above the block device's, so the rebuilt frame
 * wins; without a durable commit the frame still holds the block device's version). A frame loaded
 * or admitted clean was never persisted, so it is never a record's base. So replay rebuilds the new version in {@code m} whatever subset of its lines the crash
 * let through, and seals it with the payload CRC the record carries (not one recomputed from what
 * the frame holds): if a line of {@code m} outside the record was damaged meanwhile, the frame is
 * sealed {@code DAMAGED} and its page reported, never served. A record is retired before {@code m}'s
 * latch is released, so at most one live record names a frame, and a retired record's frame
 * {@code r} may be reused at once. A clean frame (equal to the block device's copy) may be
 * persisted partially or torn freely: its write sequence is the block device's, so a torn copy is
 * superseded at recovery. That is also why the background cleaner only marks a PM page clean after
 * the block device holds its image durably, and why a clean page admitted from DRAM copies the
 * block device's header.
 *
 * <h2>Why a delta frame is never served torn</h2>
 * Recovery completes delta frames before it scans: a sealed frame whose descriptor names its page and
 * sequence takes the lines its bitmap does not name from the block device, if the block device still
 * holds the base sequence (it cannot change while PM holds a newer copy: a DRAM write-back to the
 * block device invalidates the PM frame durably after the block device is forced, and the frame's own
 * write-back writes the frame's version, which then supersedes it); the frame must then verify against
 * the payload CRC sealed in its header, is persisted whole and its descriptor cleared. A base that is
 * gone, or a damaged durable line, fails that CRC: the frame stays {@code DAMAGED} and its page is
 * reported unless a newer copy exists. The descriptor is durable before the commit word, so a committed
 * delta frame always has it; descriptors are believed only for the page and sequence of the frame's
 * verified header, and write sequences are never reused, so a stale one is ignored.
 */
package io.most.buffer;
