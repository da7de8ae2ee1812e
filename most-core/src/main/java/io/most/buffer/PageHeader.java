package io.most.buffer;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The self-describing header at the start of every stored page (PM frame or block-device page):
 *
 * <pre>
 *  0  int   magic and format version ('M','S', version)   \  the commit word: one aligned
 *  4  int   header CRC32C of bytes [8, 32)                 /  8-byte store seals the page
 *  8  int   page id
 * 12  int   payload CRC32C of bytes [32, pageSize)
 * 16  long  LSN of the last change
 * 24  long  write sequence (orders two copies of one page after a crash)
 * 32  ...   payload
 * </pre>
 *
 * <p><b>Verify, then trust.</b> Nothing is read from a header before its checksum verifies: the
 * header CRC covers the page id, the LSN, the write sequence and the payload CRC, and the payload CRC
 * covers the payload. So a page whose header verifies but whose payload does not can be named (it is
 * damaged), while a header that fails its own CRC names nothing: its page id may be the damaged part.
 *
 * <p><b>Seal protocol</b> ({@link #sealInPlace}, used for PM frames that crash with the process): (1)
 * clear the commit word, so the frame reads as unsealed from here on; (2) write page id, payload CRC,
 * LSN and write sequence; (3) persist the whole frame; (4) store the commit word (magic and header
 * CRC) with one aligned 8-byte store, which PM and the page cache both apply whole; (5) persist it.
 * A crash before (4) leaves a frame with no magic, which recovery treats as free: an unsealed frame
 * never outranks an intact older copy, however new the write sequence it names. A crash after (4)
 * leaves a fully sealed frame. A page bound for the block device is sealed in memory
 * ({@link #seal}) and written with one device write; a torn write fails one of the two CRCs.
 */
final class PageHeader {
    static final int SIZE = 32;
    static final int FORMAT_VERSION = 2;
    static final int MAGIC = 0x4D53_0000 | FORMAT_VERSION;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private PageHeader() {
    }

    /**
     * What a stored page image turned out to be.
     * <ul>
     * <li>{@code VALID}: header and payload verify; its fields can be trusted.</li>
     * <li>{@code NEVER_WRITTEN}: all zeros.</li>
     * <li>{@code UNSEALED}: no commit word (a PM frame invalidated, or whose seal never completed); on
     * the block device, a page that was never sealed yet holds bytes (a torn write).</li>
     * <li>{@code DAMAGED}: the header verifies, so the page id, LSN and write sequence can be trusted,
     * but the payload or the magic does not (media damage, a torn write, or a PM frame caught while
     * being changed in place).</li>
     * <li>{@code UNIDENTIFIABLE}: it was sealed once, but its header fails its checksum, so it names no
     * page that can be believed.</li>
     * </ul>
     */
    enum Check {
        VALID, NEVER_WRITTEN, UNSEALED, DAMAGED, UNIDENTIFIABLE
    }

    static long pageId(MemorySegment page) {
        return Integer.toUnsignedLong(page.get(INT, 8));
    }

    static long lsn(MemorySegment page) {
        return page.get(LONG, 16);
    }

    static long seq(MemorySegment page) {
        return page.get(LONG, 24);
    }

    /** Seals {@code page} in memory for its current payload (it is then written whole). */
    static void seal(MemorySegment page, long pageId, long lsn, long seq) {
        writeFields(page, pageId, lsn, seq);
        page.set(LONG, 0, commitWord(page));
    }

    /**
     * Steps (1) and (2) of the seal protocol on a frame that may be sealed now: uncommits it, then
     * writes the header fields. The caller persists the frame and then calls {@link #commit}.
     */
    static void prepareSeal(MemorySegment page, long pageId, long lsn, long seq) {
        prepareSeal(page, pageId, lsn, seq, payloadCrc(page));
    }

    /**
     * {@link #prepareSeal(MemorySegment, long, long, long)} with the payload CRC given, not computed:
     * for a frame updated from a redo record, whose CRC was taken over the intended payload, so that a
     * frame whose payload does not match it (damaged before the update) is sealed {@code DAMAGED},
     * never vouched for.
     */
    static void prepareSeal(MemorySegment page, long pageId, long lsn, long seq, int payloadCrc) {
        page.set(LONG, 0, 0L);
        VarHandle.storeStoreFence(); // the uncommit lands before any new header field
        writeFields(page, pageId, lsn, seq, payloadCrc);
    }

    /** The CRC32C of the page's payload, as its header records it once sealed. */
    static int payloadCrc(MemorySegment page) {
        return Checksums.crc32c(page.asSlice(SIZE));
    }

    /** Step (4) of the seal protocol: the single aligned store that makes a prepared frame valid. */
    static void commit(MemorySegment page) {
        long word = commitWord(page);
        VarHandle.storeStoreFence(); // the header fields land before the word that vouches for them
        page.set(LONG, 0, word);
    }

    private static void writeFields(MemorySegment page, long pageId, long lsn, long seq) {
        writeFields(page, pageId, lsn, seq, payloadCrc(page));
    }

    private static void writeFields(MemorySegment page, long pageId, long lsn, long seq, int payloadCrc) {
        if (pageId < 0 || pageId > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("page id " + pageId + " does not fit a page header");
        }
        page.set(INT, 8, (int) pageId);
        page.set(LONG, 16, lsn);
        page.set(LONG, 24, seq);
        page.set(INT, 12, payloadCrc);
    }

    private static long commitWord(MemorySegment page) {
        long magic = Integer.toUnsignedLong(MAGIC);
        long crc = Integer.toUnsignedLong(headerCrc(page));
        return LITTLE_ENDIAN ? magic | crc << 32 : magic << 32 | crc;
    }

    private static int headerCrc(MemorySegment page) {
        return Checksums.crc32c(page.asSlice(8, SIZE - 8));
    }

    /**
     * Copies a page's payload (everything after the header) into another frame of the same size,
     * leaving the target's header alone: a PM frame stays unsealed until it is sealed.
     */
    static void copyPayload(MemorySegment from, MemorySegment to) {
        MemorySegment.copy(from, SIZE, to, SIZE, from.byteSize() - SIZE);
    }

    /** Makes {@code page} unrecognisable as a sealed page (the magic is cleared). */
    static void invalidate(MemorySegment page) {
        page.set(INT, 0, 0);
    }

    static Check check(MemorySegment page) {
        int magic = page.get(INT, 0);
        if (magic == 0) {
            return isZero(page, 0, page.byteSize()) ? Check.NEVER_WRITTEN : Check.UNSEALED;
        }
        if (page.get(INT, 4) != headerCrc(page)) {
            // a header that was never written cannot name a page: a flipped bit in a blank magic
            return isZero(page, 4, SIZE) ? Check.UNSEALED : Check.UNIDENTIFIABLE;
        }
        if (magic != MAGIC || page.get(INT, 12) != Checksums.crc32c(page.asSlice(SIZE))) {
            return Check.DAMAGED;
        }
        return Check.VALID;
    }

    /** Why {@link #check} did not find {@code page} valid, for error messages. */
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
        if (page.get(INT, 4) != headerCrc(page)) {
            return "header checksum mismatch (media corruption)";
        }
        return "payload checksum mismatch (torn write or media corruption)";
    }

    private static boolean isZero(MemorySegment page, long from, long to) {
        long i = from;
        for (; i + 8 <= to; i += 8) {
            if (page.get(LONG, i) != 0) {
                return false;
            }
        }
        for (; i < to; i++) {
            if (page.get(ValueLayout.JAVA_BYTE, i) != 0) {
                return false;
            }
        }
        return true;
    }
}
