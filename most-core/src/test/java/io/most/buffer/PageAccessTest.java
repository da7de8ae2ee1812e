package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.MigrationPolicy;
import io.most.Page;
import io.most.PageCursor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * {@link PageAccess}, the read protocol, on hand-built pools and mappings with no store around them: a
 * hit pins the mapped frame or puts a cursor on it and counts it, anything else goes to the slow path
 * (here a recorder), a cursor validates until a writer comes, and its typed reads stay inside the
 * payload and name a bad offset.
 */
class PageAccessTest {
    private static final int PAGE = 4096;
    private static final int PAGES = 16;
    private static final int FRAMES = 4;
    private static final long PAYLOAD = PAGE - PageHeader.SIZE;

    /** What the slow path was asked: the test's stand-in for the load and migration path. */
    record Missed(long pageId, int index, boolean exclusive) {
    }

    static final class MissedException extends RuntimeException {
        final Missed missed;

        MissedException(Missed missed) {
            super("slow path: " + missed);
            this.missed = missed;
        }
    }

    /** The read protocol over the given pools, whose slow path throws what it was asked. */
    static final class Access extends PageAccess {
        Access(FramePool dram, int[] dramMapping, FramePool pm, int[] pmMapping, MigrationPolicy policy) {
            this(dram, dramMapping, pm, pmMapping, policy,
                    new BufferCounters(dram.hits(), pm == null ? new StripedCounter() : pm.hits()));
        }

        private Access(FramePool dram, int[] dramMapping, FramePool pm, int[] pmMapping, MigrationPolicy policy,
                       BufferCounters counters) {
            super(dram, dramMapping, pm, pmMapping, PmCost.NONE, counters, new LoadAdmission(counters), policy);
        }

        @Override
        long pinSlowly(long pageId, int i, boolean exclusive) {
            throw new MissedException(new Missed(pageId, i, exclusive));
        }

        @Override
        void commitPmWrite(int frame, int target, long pageId, boolean dirtied, long lsn) {
            throw new AssertionError("no PM write is pinned without the slow path");
        }
    }

    private final Arena arena = Arena.ofAuto();
    private final FramePool dram = pool("dram");
    private final int[] dramMapping = mapping();

    private FramePool pool(String tier) {
        return new FramePool(tier, arena.allocate((long) FRAMES * PAGE, PAGE), PAGE, PageHeader.SIZE);
    }

    private static int[] mapping() {
        int[] mapping = new int[PAGES];
        java.util.Arrays.fill(mapping, -1);
        return mapping;
    }

    /** Puts page {@code pageId} holding {@code value} at payload offset 0 into a free frame of {@code pool}. */
    private static int put(FramePool pool, int[] mapping, long pageId, long value) {
        int f = pool.takeFree();
        pool.payload(f, true).set(ValueLayout.JAVA_LONG, 0, value);
        pool.setPage(f, pageId);
        mapping[(int) pageId] = f;
        pool.unlatchExclusive(f);
        return f;
    }

    private Access dramOnly() {
        return new Access(dram, dramMapping, null, null, MigrationPolicy.eager());
    }

    private static Missed missed(Runnable access) {
        return assertThrows(MissedException.class, access::run).missed;
    }

    @Test
    void aDramHitPinsTheMappedFrameAndAnythingElseGoesTheSlowWay() {
        Access access = dramOnly();
        int f = put(dram, dramMapping, 5, 55);
        try (Page page = access.read(5)) {
            assertEquals(55, page.payload().get(ValueLayout.JAVA_LONG, 0));
            assertFalse(dram.tryLatchExclusive(f), "held shared until closed");
        }
        try (Page page = access.write(5)) {
            page.payload().set(ValueLayout.JAVA_LONG, 0, 56);
            page.markDirty(3);
        }
        assertTrue(dram.isDirty(f), "a dirtied handle marks its frame at close");
        assertEquals(3, dram.lsn(f));
        assertEquals(2, dram.hits().sum());
        assertEquals(new Missed(6, 6, false), missed(() -> access.read(6)), "not mapped");
        assertEquals(new Missed(6, 6, true), missed(() -> access.write(6)));
        dramMapping[7] = f; // a stale entry: the frame holds page 5
        assertEquals(new Missed(7, 7, false), missed(() -> access.read(7)), "the page-id check under the latch");
        assertEquals(2, dram.hits().sum(), "misses count no hit");
        assertTrue(dram.tryLatchExclusive(f), "nothing left latched");
        dram.unlatchExclusive(f);
    }

    @Test
    void aPageOutsideTheMappingAndAClosedStoreAreNamed() {
        Access access = dramOnly();
        for (long bad : new long[] {-1, PAGES, 1L << 32}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> access.read(bad));
            assertEquals("page " + bad + " is not allocated (capacity " + PAGES + " pages)", e.getMessage());
            assertEquals(e.getMessage(), assertThrows(IllegalArgumentException.class,
                    () -> access.cursor().begin(bad)).getMessage(), "the cursor names it as read does");
        }
        PageCursor cursor = access.cursor();
        access.closed = true;
        assertEquals("page store is closed",
                assertThrows(IllegalStateException.class, () -> access.read(6)).getMessage(),
                "the slow path is not reached once closed");
        assertThrows(IllegalStateException.class, () -> cursor.begin(6), "a page found unmapped checks");
        assertThrows(IllegalStateException.class, access::cursor);
    }

    @Test
    void aCursorValidatesUntilAWriterComesAndTakesBackItsHitIfNot() {
        Access access = dramOnly();
        put(dram, dramMapping, 5, 0x0102030405060708L);
        PageCursor cursor = access.cursor();
        assertTrue(cursor.begin(5));
        assertEquals(0x0102030405060708L, cursor.getLong(0));
        assertEquals(0x05060708, cursor.getInt(0));
        assertEquals((byte) 0x08, cursor.getByte(0));
        byte[] copy = new byte[8];
        cursor.copy(0, copy, 0, 8);
        assertEquals(0x0102030405060708L, MemorySegment.ofArray(copy).get(ValueLayout.JAVA_LONG_UNALIGNED, 0));
        assertEquals(0x0102030405060708L, cursor.payload().get(ValueLayout.JAVA_LONG, 0));
        assertTrue(cursor.validate());
        assertEquals(1, dram.hits().sum());
        try (Page page = access.write(5)) {
            assertFalse(access.cursor().begin(5), "no begin while a writer holds the page");
        }
        assertFalse(cursor.validate(), "the writer moved the version");
        assertEquals(1, dram.hits().sum(), "the write's hit; the failed validation took the cursor's back");
        assertEquals(1, access.counters.optimisticRetries.sum(), "and counted the retry its caller makes");
        assertFalse(cursor.begin(6), "not buffered: no page, and no slow path");
        assertFalse(cursor.validate());
        assertEquals(1, access.counters.optimisticRetries.sum(), "validating no page is no retry");
    }

    @Test
    void typedReadsStayInsideThePayloadAndNameAReadOnNoPage() {
        Access access = dramOnly();
        put(dram, dramMapping, 5, 1);
        PageCursor cursor = access.cursor();
        assertTrue(cursor.begin(5));
        for (long offset : new long[] {-1, PAYLOAD - 7, Long.MIN_VALUE}) {
            IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> cursor.getLong(offset));
            assertEquals("8 bytes at offset " + offset + " are outside the page payload of " + PAYLOAD + " bytes",
                    e.getMessage());
        }
        assertEquals(0, cursor.getLong(PAYLOAD - 8), "the last long of the payload");
        assertThrows(IndexOutOfBoundsException.class, () -> cursor.getByte(PAYLOAD));
        assertThrows(IndexOutOfBoundsException.class, () -> cursor.copy(1, new byte[(int) PAYLOAD], 0, (int) PAYLOAD));
        assertEquals(PAYLOAD, cursor.payload().byteSize());
        assertTrue(cursor.payload().isReadOnly());
        assertTrue(cursor.validate());
        assertFalse(cursor.begin(6));
        String noPage = "PageCursor is on no page: begin() answered false, or validate() failed; begin() again, or"
                + " read(pageId)";
        assertEquals(noPage, assertThrows(IllegalStateException.class, () -> cursor.getLong(0)).getMessage());
        assertEquals(noPage, assertThrows(IllegalStateException.class, cursor::payload).getMessage());
        assertEquals(noPage, assertThrows(IllegalStateException.class,
                () -> cursor.copy(0, new byte[8], 0, 8)).getMessage());
    }

    @Test
    void aPageBufferedOnlyInPmIsReadThereUnlessThePolicyMigratesIt() {
        FramePool pm = pool("pm");
        int[] pmMapping = mapping();
        Access access = new Access(dram, dramMapping, pm, pmMapping, MigrationPolicy.of(0, 1, 1, 1));
        int m = put(pm, pmMapping, 9, 99);
        try (Page page = access.read(9)) {
            assertEquals(99, page.payload().get(ValueLayout.JAVA_LONG, 0));
            assertTrue(page.toString().contains("pm frame " + m), page.toString());
        }
        PageCursor cursor = access.cursor();
        assertTrue(cursor.begin(9));
        assertTrue(cursor.toString().contains("pm frame " + m), cursor.toString());
        assertEquals(99, cursor.getLong(0));
        assertEquals(99, cursor.payload().get(ValueLayout.JAVA_LONG, 0));
        assertTrue(cursor.validate());
        assertEquals(2, pm.hits().sum());
        assertEquals(new Missed(9, 9, true), missed(() -> access.write(9)), "a PM write goes to a private copy");
        access.policy = MigrationPolicy.of(1, 1, 1, 1);
        assertEquals(new Missed(9, 9, false), missed(() -> access.read(9)), "Dr = 1: every read migrates to DRAM");
        int f = put(dram, dramMapping, 9, 100);
        assertTrue(cursor.begin(9));
        assertEquals(100, cursor.getLong(0), "a DRAM copy is read first");
        assertTrue(cursor.toString().contains("dram frame " + f), cursor.toString());
        assertEquals(f, dramMapping[9]);
        assertEquals(2, pm.hits().sum());
    }
}
