package io.most.buffer;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The self-describing header at the start of every stored page (PM frame or block-device page):
 *
 * <pre>
 *  0  int   magic and format version ('M','S', version)
 *  4  int   CRC32C of bytes [8, pageSize)
 *  8  long  page id
 * 16  long  LSN of the last change
 * 24  long  write sequence (orders two PM copies of one page after a crash)
 * 32  ...   payload
 * </pre>
 *
 * A page of all zeros is a page that was never written. Anything else must carry the magic and a
 * matching checksum; a torn write fails the checksum. PM frames are written payload first and sealed
 * (header persisted) last, so a PM frame without magic is one whose write never completed.
 */
final class PageHeader {
    static final int SIZE = 32;
    static final int FORMAT_VERSION = 1;
    static final int MAGIC = 0x4D53_0000 | FORMAT_VERSION;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private PageHeader() {
    }

    /**
     * What a stored page image turned out to be: valid; all zeros (never written); content without
     * a header (a PM frame whose write never reached its seal; on the block device, a torn write); or
     * a header whose checksum or format does not match.
     */
    enum Check {
        VALID, NEVER_WRITTEN, UNSEALED, CORRUPT
    }

    static long pageId(MemorySegment page) {
        return page.get(LONG, 8);
    }

    static long lsn(MemorySegment page) {
        return page.get(LONG, 16);
    }

    static long seq(MemorySegment page) {
        return page.get(LONG, 24);
    }

    /** Fills in the header of {@code page} for its current payload. */
    static void seal(MemorySegment page, long pageId, long lsn, long seq) {
        page.set(INT, 0, MAGIC);
        page.set(LONG, 8, pageId);
        page.set(LONG, 16, lsn);
        page.set(LONG, 24, seq);
        page.set(INT, 4, Checksums.crc32c(page.asSlice(8)));
    }

    /** Makes {@code page} unrecognisable as a page (the magic is cleared). */
    static void invalidate(MemorySegment page) {
        page.set(INT, 0, 0);
    }

    static Check check(MemorySegment page) {
        int magic = page.get(INT, 0);
        if (magic == 0) {
            return isAllZero(page) ? Check.NEVER_WRITTEN : Check.UNSEALED;
        }
        if (magic != MAGIC || page.get(INT, 4) != Checksums.crc32c(page.asSlice(8))) {
            return Check.CORRUPT;
        }
        return Check.VALID;
    }

    /** Why {@link #check} found {@code page} corrupt, for error messages. */
    static String describeCorruption(MemorySegment page) {
        int magic = page.get(INT, 0);
        if (magic == 0) {
            return "no header but non-zero contents (torn write?)";
        }
        if ((magic >>> 16) != (MAGIC >>> 16)) {
            return String.format("not a MOST page (magic 0x%08x)", magic);
        }
        if (magic != MAGIC) {
            return "page format version " + (magic & 0xFFFF) + ", this build reads " + FORMAT_VERSION;
        }
        return "checksum mismatch (torn write or media corruption)";
    }

    private static boolean isAllZero(MemorySegment page) {
        long n = page.byteSize();
        for (long i = 0; i < n; i += 8) {
            if (page.get(LONG, i) != 0) {
                return false;
            }
        }
        return true;
    }
}
