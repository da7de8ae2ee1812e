package io.most.it;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;

/**
 * A self-checking page payload for the page store's crash tests: its whole content follows from
 * (run, page id, version), so a reader can tell which version of the page it holds, and that the
 * bytes are exactly that version's. Version 0 is the freshly allocated page: all zeros.
 *
 * <pre>
 * [0, 8)    version (the round of the writer that wrote it; 0 = never written)
 * [8, 16)   LSN the writer passed to markDirty for this version
 * [16, 24)  page id
 * [24, 32)  run id (the test's seed for this child: a page of another run is foreign)
 * [32, end) pseudo-random bytes seeded by (run, page id, version / 16), except the first word of every
 *           8th 64-byte line of the frame, which holds the version
 * </pre>
 *
 * So a write whose page last held a version of the same group of 16 changes only line 0 and every
 * 8th line of the page: the buffer manager then persists just those lines of a PM page through a
 * redo record, and the crash tests cut that path too; a write into a new group changes the whole
 * page (the out-of-place path). Either way every line that differs between two versions carries the
 * version, so a page torn between them is detected.
 */
final class VersionedPage {
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final int VERSION_AT = 0;
    private static final int LSN_AT = 8;
    private static final int PAGE_AT = 16;
    private static final int RUN_AT = 24;
    private static final int RANDOM_AT = 32;
    /** Bytes of the page header before the payload: lines are counted from the start of the frame. */
    private static final int FRAME_HEADER = 32;
    /** Every this many bytes of the frame, a word holds the version. */
    private static final int VERSION_WORD_EVERY = 8 * 64;
    /** The pseudo-random bytes change every this many versions. */
    private static final int REWRITE_EVERY = 16;

    /** What a payload holds: a version and its LSN, or a problem (then version is -1). */
    record Content(long version, long lsn, String problem) {
        static final Content NEVER_WRITTEN = new Content(0, 0, null);

        boolean isValid() {
            return problem == null;
        }

        @Override
        public String toString() {
            return problem == null ? "version " + version + " (lsn " + lsn + ")" : "garbage: " + problem;
        }
    }

    private VersionedPage() {
    }

    /** Writes version {@code version} of page {@code pageId}, logged at {@code lsn}, into {@code payload}. */
    static void stamp(MemorySegment payload, long run, long pageId, long version, long lsn) {
        payload.set(LONG, VERSION_AT, version);
        payload.set(LONG, LSN_AT, lsn);
        payload.set(LONG, PAGE_AT, pageId);
        payload.set(LONG, RUN_AT, run);
        SplittableRandom random = randomOf(run, pageId, version / REWRITE_EVERY);
        long end = payload.byteSize() - Long.BYTES;
        for (long at = RANDOM_AT; at <= end; at += Long.BYTES) {
            long word = random.nextLong(); // drawn for every word, so that the stream stays aligned
            payload.set(LONG, at, isVersionWord(at) ? version : word);
        }
    }

    /** Decodes {@code payload}, expected to be a version of page {@code pageId} of run {@code run}. */
    static Content inspect(MemorySegment payload, long run, long pageId) {
        long end = payload.byteSize() - Long.BYTES;
        if (isAllZero(payload)) {
            return Content.NEVER_WRITTEN;
        }
        long version = payload.get(LONG, VERSION_AT);
        long lsn = payload.get(LONG, LSN_AT);
        if (payload.get(LONG, RUN_AT) != run) {
            return new Content(-1, -1, "run id " + payload.get(LONG, RUN_AT) + ", expected " + run
                    + " (version field " + version + ")");
        }
        if (payload.get(LONG, PAGE_AT) != pageId) {
            return new Content(-1, -1, "holds page " + payload.get(LONG, PAGE_AT) + " (version field " + version + ")");
        }
        if (version <= 0) {
            return new Content(-1, -1, "version field " + version + " in a written page");
        }
        SplittableRandom random = randomOf(run, pageId, version / REWRITE_EVERY);
        for (long at = RANDOM_AT; at <= end; at += Long.BYTES) {
            long word = random.nextLong();
            if (payload.get(LONG, at) != (isVersionWord(at) ? version : word)) {
                return new Content(-1, -1, "bytes of version " + version + " (lsn " + lsn + ") differ at payload offset " + at);
            }
        }
        return new Content(version, lsn, null);
    }

    private static boolean isVersionWord(long payloadOffset) {
        return (payloadOffset + FRAME_HEADER) % VERSION_WORD_EVERY == 0;
    }

    private static boolean isAllZero(MemorySegment payload) {
        long end = payload.byteSize() - Long.BYTES;
        for (long at = 0; at <= end; at += Long.BYTES) {
            if (payload.get(LONG, at) != 0) {
                return false;
            }
        }
        return true;
    }

    private static SplittableRandom randomOf(long run, long pageId, long version) {
        return new SplittableRandom(run * 0x9E3779B97F4A7C15L ^ pageId * 0xC2B2AE3D27D4EB4FL ^ version * 0x165667B19E3779F9L);
    }
}
