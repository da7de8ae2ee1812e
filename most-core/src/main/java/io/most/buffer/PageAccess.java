package io.most.buffer;

import io.most.MigrationPolicy;
import io.most.Page;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The read protocol of the buffer manager: how a caller reaches a buffered page's bytes. Latched pages
 * ({@link #read}, {@link #write}: a frame's shared or exclusive latch, held until the handle closes) and
 * the latch-free reader ({@link #cursor()}: a {@link FrameCursor} over the same pools and mappings,
 * validated by the frame's latch word after the reads). A page that is not buffered, or whose mapping
 * changed while it was latched, goes to {@link #pinSlowly}, the load and migration path
 * ({@link PageLoader}).
 *
 * <p>The buffer manager extends this class instead of holding it in a field so that a hit loads the
 * pools and mappings from the store object itself: a delegate would cost every hit one more dependent
 * load, after each acquire, which is a compiler barrier that makes the JIT load every field again.
 *
 * <p>Safety: every change of a frame's page, contents or mapping happens under the frame's exclusive
 * latch ({@link FramePool}); the hit paths read the mappings plain, and a stale frame number fails the
 * page-id and mapping checks made under the latch, or the cursor's validation. A closed store has
 * nothing mapped ({@link SpitfireBufferManager}'s close unmaps every page before it frees the pools),
 * so a hit needs no open check: only the paths that find nothing mapped check.
 */
abstract class PageAccess {
    final int pageSize;
    /** {@link #payloadSize()} as a long: the typed reads' offset check then needs no sign extension. */
    final long payloadBytes;
    final FramePool dram;
    /** The DRAM mapping's entries, for the hit paths' plain reads: one load fewer than through the table. */
    final int[] dramMapping;
    /** Null without PM, as is {@link #pmEntries}. */
    final FramePool pm;
    /** The PM mapping's entries (null without PM), read plain by the latched PM read hit. */
    final int[] pmEntries;
    final PmCost pmCost;
    final BufferCounters counters;
    // the pools' hit counters (FramePool.hits), for the paths that count outside the pools
    private final StripedCounter dramHits;
    private final StripedCounter pmHits;
    /**
     * Non-hierarchical caching's decision points: while it offloads, reads of PM pages take the latched
     * slow path, which draws the offload once per read ({@link PageLoader}).
     */
    final LoadAdmission admission;
    /** The migration policy in force: the PM read hit draws its Dr. */
    volatile MigrationPolicy policy;
    /** Set as the store closes, before it unmaps every page: the paths that find nothing mapped check it. */
    volatile boolean closed;

    /**
     * @param dramMapping the DRAM mapping's entries ({@link PageTable#entries()})
     * @param pm          null without PM, as is {@code pmMapping}
     */
    PageAccess(FramePool dram, int[] dramMapping, FramePool pm, int[] pmMapping, PmCost pmCost,
               BufferCounters counters, LoadAdmission admission, MigrationPolicy policy) {
        this.pageSize = dram.frameSize;
        this.payloadBytes = pageSize - PageHeader.SIZE;
        this.dram = dram;
        this.dramMapping = dramMapping;
        this.pm = pm;
        this.pmEntries = pm == null ? null : pmMapping;
        this.pmCost = pmCost;
        this.counters = counters;
        this.dramHits = counters.dramHits;
        this.pmHits = counters.pmHits;
        this.admission = admission;
        this.policy = policy;
    }

    /**
     * The miss: pins page {@code pageId} (mapping index {@code i}) when the hit path found it not
     * mapped, or its mapping changed while latching; loads or migrates it as needed, and answers the
     * {@link PinnedFrame#slow slow} form of the pinned frame. Called with the store open.
     */
    abstract long pinSlowly(long pageId, int i, boolean exclusive);

    /**
     * The close of an exclusive handle of a PM page: seals and publishes the private copy
     * {@code target} that the write worked on over frame {@code frame}, and unlatches.
     */
    abstract void commitPmWrite(int frame, int target, long pageId, boolean dirtied, long lsn);

    // the PageStore methods this class implements for the buffer manager: see PageStore for their contracts

    public final int pageSize() {
        return pageSize;
    }

    public final int payloadSize() {
        return pageSize - PageHeader.SIZE;
    }

    /*
     * read() and write() pin a frame (access(), which returns the frame as a long) and wrap it in a
     * handle here, in a method small enough to inline into the caller: so escape analysis can drop the
     * handle of a Page that the caller closes in the same method, and a hit on either tier allocates
     * nothing. The handle never reaches code that is not inlined on a hit (see release()). The handle
     * is made in one place, after the hit and slow paths merge, on purpose: a method that made it on
     * the hit path and called the slow path beside would compile (with the slow path inlined) too big
     * to inline into its caller, and a PM hit's handle would then escape.
     */

    public final Page read(long pageId) {
        return handle(access(pageId, false), pageId, false);
    }

    public final Page write(long pageId) {
        return handle(access(pageId, true), pageId, true);
    }

    private Page handle(long pinned, long pageId, boolean exclusive) {
        FramePool pool = dram;
        int frame = (int) pinned;
        int target = frame;
        if (pinned < 0) { // the slow path's answer; one allocation below for both, for escape analysis
            pool = PinnedFrame.isPm(pinned) ? pm : dram;
            frame = PinnedFrame.frame(pinned);
            target = PinnedFrame.target(pinned);
        }
        return new LatchedPage(this, pool, frame, target, pageId, exclusive);
    }

    /**
     * Pins the page's frame under a shared or exclusive latch, loading the page if needed: answers a
     * DRAM hit's frame, else the {@link PinnedFrame#slow slow answer}. The DRAM hit is this method alone (small enough
     * to inline into the caller); the rest is {@link #accessSlowly}. The mapping is read plain: a
     * stale frame number fails the page-id and mapping checks made under the latch (whose atomic add
     * orders them), and goes the slow way.
     * No open check: close() unmaps every page, so a closed store's accesses all take the slow path,
     * which checks.
     */
    private long access(long pageId, boolean exclusive) {
        int i = checkedIndex(pageId);
        int f = dramMapping[i];
        if (FrameRecords.isMapped(f)) {
            if (pinInDram(pageId, i, f, exclusive)) {
                return f; // see PinnedFrame
            }
        } else if (!exclusive) {
            long pinned = pinPmReadHit(pageId, i);
            if (pinned < 0) {
                return pinned;
            }
        }
        return accessSlowly(pageId, i, exclusive);
    }

    /** {@link #access} when the page was not mapped in DRAM, or its mapping changed while latching. */
    private long accessSlowly(long pageId, int i, boolean exclusive) {
        checkOpen();
        return pinSlowly(pageId, i, exclusive);
    }

    /**
     * The latched PM read hit, on the inlined path beside the DRAM hit (not in {@link #accessSlowly},
     * which a hot caller may or may not inline): so the handle of a PM hit is made, used and dropped
     * in the caller's compile as a DRAM hit's is, and escape analysis removes it in every compile, not
     * only in those where the slow path happened to inline. Answers the {@link PinnedFrame#slow slow answer} of the
     * pinned frame, or 0 (not a PM hit here: the slow path decides, and loads, migrates or retries).
     * Plain reads of both mappings after the latch's atomic add, which orders them; a page mapped in
     * PM is allocated and intact, and a closed store has nothing mapped (see {@link SpitfireBufferManager#close}).
     */
    private long pinPmReadHit(long pageId, int i) {
        int[] pmMapping = pmEntries;
        if (pmMapping == null) {
            return 0;
        }
        int m = pmMapping[i];
        // while load admission offloads, the slow path draws where the read goes (once per read)
        if (!FrameRecords.isMapped(m) || admission.offloading() || draw(policy.dr())
                || !pm.latchHolding(m, pageId, false)) { // counts the hit
            return 0;
        }
        if (pmMapping[i] != m || dramMapping[i] >= 0) { // moved (to DRAM, or elsewhere in PM) meanwhile
            pmHits.decrement();
            pm.unlatchShared(m);
            return 0;
        }
        pmCost.load(Math.min(4096, pageSize));
        return PinnedFrame.slow(PinnedFrame.of(true, m, m));
    }

    /**
     * Latches DRAM frame {@code f} and keeps the latch if the frame still holds page {@code pageId} and
     * the mapping still names it (a hit); else releases it and returns false. Plain reads after the
     * latch: its atomic add orders them, and the frame's page and mapping change only under the
     * exclusive latch. Also the load path's retry ({@link PageLoader}).
     */
    final boolean pinInDram(long pageId, int i, int f, boolean exclusive) {
        if (dram.latchHolding(f, pageId, exclusive)) { // counts the hit
            if (dramMapping[i] == f) {
                return true;
            }
            dramHits.decrement();
            dram.unlatch(f, exclusive);
        }
        return false;
    }

    /** A new {@link FrameCursor} over this store's pools and mappings (see {@link io.most.PageStore#cursor()}). */
    public final io.most.PageCursor cursor() {
        checkOpen();
        return new FrameCursor(this, dram, dramMapping, pm, pmEntries, pmCost, payloadBytes);
    }

    /** Called by {@link LatchedPage#close()}. */
    final void release(LatchedPage page) {
        FramePool pool = page.pool;
        int f = page.frame;
        if (!page.exclusive) {
            pool.unlatchShared(f);
            return;
        }
        if (pool == dram) {
            if (page.dirtied) {
                dram.raiseLsn(f, page.lsn);
                dram.setDirty(f, true);
            }
            dram.unlatchExclusive(f);
            return;
        }
        commitPmWrite(page.frame, page.target, page.pageId, page.dirtied, page.lsn); // fields: the handle stays local
    }

    /** Whether an event of {@code probability} happens this time (drawn per call, per thread). */
    static boolean draw(double probability) {
        return probability >= 1 || (probability > 0 && ThreadLocalRandom.current().nextDouble() < probability);
    }

    final void checkOpen() {
        if (closed) {
            throw new IllegalStateException("page store is closed");
        }
    }

    /** The page id as an index of the mapping table, or IllegalArgumentException if out of range. */
    final int checkedIndex(long pageId) {
        // as an int compared unsigned, the form of the JIT's own index check of the mapping table: the
        // two merge (a long compare would not), and a negative id fails the same compare
        int i = (int) pageId;
        if (i != pageId || Integer.compareUnsigned(i, dramMapping.length) >= 0) {
            throw outsideCapacity(pageId);
        }
        return i;
    }

    /** The error for a page id outside the store's capacity (here and in {@link FrameCursor#begin}). */
    final IllegalArgumentException outsideCapacity(long pageId) {
        return new IllegalArgumentException("page " + pageId + " is not allocated (capacity "
                + dramMapping.length + " pages)");
    }

    /** The DRAM pool's hit counter (a cursor takes back the hit of a failed validation). */
    final StripedCounter dramHits() {
        return dramHits;
    }

    /** The PM pool's hit counter (a cursor takes back the hit of a failed validation). */
    final StripedCounter pmHits() {
        return pmHits;
    }
}
