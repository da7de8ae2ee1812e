package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.MigrationPolicy;
import io.most.device.MemoryDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Evictor} on hand-built pools: free frames first, then victims; a clean victim is dropped, a
 * dirty one is written to the block device or PM as the policy says, after the WAL and the allocation
 * bitmap.
 */
class EvictorTest {
    private static final int PAGE = 4096;
    private static final int PAGES = 64;
    private static final int DRAM_FRAMES = 4;
    private static final int PM_FRAMES = 16;

    @TempDir
    Path dir;
    private final Arena arena = Arena.ofShared();
    private BlockStore ssd;
    private PmArea pmArea;
    private FramePool dram;
    private FramePool pm;
    private final PageTable dramFrameOf = new PageTable(PAGES);
    private final PageTable pmFrameOf = new PageTable(PAGES);
    private final List<Long> walFlushes = new ArrayList<>();
    private volatile MigrationPolicy policy = MigrationPolicy.of(1, 1, 1, 0);
    private Evictor evictor;

    @BeforeEach
    void open() {
        ssd = BlockStore.open(new MemoryDevice("ssd", PAGE, BlockStore.deviceBytesFor(PAGES, PAGE)), PAGE, false);
        pmArea = PmArea.open(dir.resolve("pm.dat"), (long) (PM_FRAMES + 1) * PAGE, PAGE, ssd.storeId(),
                ssd.pmDependency(), false);
        dram = new FramePool("dram", arena.allocate((long) DRAM_FRAMES * PAGE, PAGE), PAGE, PageHeader.SIZE,
                S3FifoReplacement::new);
        pm = new FramePool("pm", pmArea.frames, PAGE, PageHeader.SIZE);
        for (int i = 0; i < PAGES; i++) {
            dramFrameOf.set(i, -1);
            pmFrameOf.set(i, -1);
        }
        BufferCounters counters = new BufferCounters();
        evictor = new Evictor(walFlushes::add, ssd, dram, pm, pmArea, PmCost.NONE, dramFrameOf, pmFrameOf, new PageLocks(),
                new AdmissionQueue(PM_FRAMES / 2), counters, new WriteSequence(ssd, 0), () -> policy,
                new LoadAdmission(counters));
    }

    @AfterEach
    void close() {
        pmArea.close();
        ssd.close();
        arena.close();
    }

    /** Allocates a page and installs it in a DRAM frame holding {@code value}, dirty at {@code lsn} if > 0. */
    private long install(long value, long lsn) {
        long id = ssd.allocations().allocate();
        int f = evictor.allocateDramFrame();
        dram.frame(f).set(ValueLayout.JAVA_LONG, PageHeader.SIZE, value);
        dram.setPage(f, id);
        dram.setDirty(f, lsn > 0);
        dram.setLsn(f, lsn);
        dramFrameOf.set((int) id, f);
        dram.unlatchExclusive(f);
        return id;
    }

    private MemorySegment ssdImage(long id) {
        MemorySegment image = arena.allocate(PAGE, PAGE);
        ssd.readPage(id, image);
        return image;
    }

    @Test
    void freeFramesComeFirstThenACleanVictimIsDroppedWithoutWrites() {
        for (int i = 0; i < DRAM_FRAMES; i++) {
            install(i, 0);
        }
        assertEquals(0, dram.freeCount());
        long evicted = ssd.pageCount();
        int f = evictor.allocateDramFrame();
        assertEquals(FramePool.NO_PAGE, dram.pageOf(f), "the frame comes back empty");
        int mapped = 0;
        for (int i = 0; i < DRAM_FRAMES; i++) {
            if (dramFrameOf.get(i) >= 0) {
                mapped++;
            } else {
                evicted = i;
            }
        }
        assertEquals(DRAM_FRAMES - 1, mapped, "exactly one page lost its frame");
        assertEquals(PageHeader.Check.NEVER_WRITTEN, PageHeader.check(ssdImage(evicted)), "a clean page is not written");
        assertTrue(walFlushes.isEmpty());
    }

    @Test
    void aDirtyVictimGoesToTheBlockDeviceAfterTheWalAndTheBitmap() {
        for (int i = 0; i < DRAM_FRAMES; i++) {
            install(100 + i, 10 + i);
        }
        assertTrue(ssd.allocations().isDirty());
        evictor.allocateDramFrame();
        assertFalse(ssd.allocations().isDirty(), "the bitmap reached storage before the page");
        assertEquals(1, walFlushes.size());
        long id = walFlushes.get(0) - 10; // pages 0..3 carry LSNs 10..13
        assertEquals(-1, dramFrameOf.get((int) id));
        MemorySegment image = ssdImage(id);
        assertEquals(PageHeader.Check.VALID, PageHeader.check(image));
        assertEquals(id, PageHeader.pageId(image));
        assertEquals(walFlushes.get(0), PageHeader.lsn(image));
        assertEquals(100 + id, image.get(ValueLayout.JAVA_LONG, PageHeader.SIZE));
    }

    @Test
    void withNwOneADirtyVictimGoesToASealedPmFrame() {
        policy = MigrationPolicy.of(1, 1, 1, 1);
        for (int i = 0; i < DRAM_FRAMES; i++) {
            install(200 + i, 20 + i);
        }
        evictor.allocateDramFrame();
        long id = walFlushes.get(0) - 20;
        int m = pmFrameOf.get((int) id);
        assertTrue(m >= 0, "page " + id + " has a PM frame");
        assertEquals(PageHeader.Check.VALID, PageHeader.check(pm.frame(m)));
        assertEquals(200 + id, pm.frame(m).get(ValueLayout.JAVA_LONG, PageHeader.SIZE));
        assertTrue(pm.isDirty(m), "newer than the block device");
        assertEquals(PageHeader.Check.NEVER_WRITTEN, PageHeader.check(ssdImage(id)));
    }

    @Test
    void writeBackDirtyWritesAtMostItsLimitAndLeavesPagesCached() {
        for (int i = 0; i < DRAM_FRAMES; i++) {
            install(300 + i, 30 + i);
        }
        assertEquals(2, evictor.writeBackDirty(2));
        assertEquals(2, dram.dirtyCount());
        assertEquals(2, evictor.writeBackDirty(Integer.MAX_VALUE));
        assertEquals(0, dram.dirtyCount());
        for (int i = 0; i < DRAM_FRAMES; i++) {
            assertTrue(dramFrameOf.get(i) >= 0, "write-back keeps page " + i + " in DRAM");
            assertEquals(PageHeader.Check.VALID, PageHeader.check(ssdImage(i)));
        }
    }
}
