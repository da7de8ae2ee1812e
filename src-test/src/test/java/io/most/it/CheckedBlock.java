package io.most.it;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;

/**
 * A self-checking 4 KiB test block whose whole content follows from (run, block index, generation),
 * so a reader can tell a valid block of a known generation from a never-written (all-zero) block and
 * from a torn, misdirected or foreign one.
 *
 * <pre>
 * [0, 8)     CRC32C of bytes [8, 4096)
 * [8, 16)    magic "MOST-IT1"
 * [16, 24)   block index
 * [24, 32)   generation (1 for the first write of the block)
 * [32, 40)   run id (a fresh file per run; a block of another run is foreign)
 * [40, 4096) pseudo-random payload seeded by (run id, block, generation)
 * </pre>
 */
final class CheckedBlock {
    static final int SIZE = 4096;
    static final long MAGIC = 0x3154492D54534F4DL; // "MOST-IT1" in little-endian byte order

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final int CRC_AT = 0;
    private static final int MAGIC_AT = 8;
    private static final int BLOCK_AT = 16;
    private static final int GENERATION_AT = 24;
    private static final int RUN_AT = 32;
    private static final int PAYLOAD_AT = 40;

    /** What a block holds. */
    enum State { UNWRITTEN, VALID, CORRUPT }

    /** The result of {@link #inspect}: a state, the generation if VALID, what is wrong if CORRUPT. */
    record Content(State state, long generation, String problem) {
        static final Content UNWRITTEN = new Content(State.UNWRITTEN, 0, null);

        static Content valid(long generation) {
            return new Content(State.VALID, generation, null);
        }

        static Content corrupt(String problem) {
            return new Content(State.CORRUPT, -1, problem);
        }

        @Override
        public String toString() {
            return switch (state) {
                case UNWRITTEN -> "unwritten (all zero)";
                case VALID -> "generation " + generation;
                case CORRUPT -> "corrupt: " + problem;
            };
        }
    }

    private CheckedBlock() {
    }

    /** Writes generation {@code generation} of block {@code block} of run {@code run} into {@code target}. */
    static void fill(MemorySegment target, long run, long block, long generation) {
        checkSize(target);
        target.set(LONG, MAGIC_AT, MAGIC);
        target.set(LONG, BLOCK_AT, block);
        target.set(LONG, GENERATION_AT, generation);
        target.set(LONG, RUN_AT, run);
        SplittableRandom payload = payloadRandom(run, block, generation);
        for (long at = PAYLOAD_AT; at < SIZE; at += Long.BYTES) {
            target.set(LONG, at, payload.nextLong());
        }
        target.set(LONG, CRC_AT, crc(target));
    }

    /** Decodes {@code source}, expected to be block {@code block} of run {@code run}. */
    static Content inspect(MemorySegment source, long run, long block) {
        checkSize(source);
        if (isAllZero(source)) {
            return Content.UNWRITTEN;
        }
        long stored = source.get(LONG, CRC_AT);
        long computed = crc(source);
        if (stored != computed) {
            return Content.corrupt("checksum mismatch (stored " + Long.toHexString(stored) + ", computed "
                    + Long.toHexString(computed) + ")");
        }
        if (source.get(LONG, MAGIC_AT) != MAGIC) {
            return Content.corrupt("bad magic " + Long.toHexString(source.get(LONG, MAGIC_AT)));
        }
        if (source.get(LONG, RUN_AT) != run) {
            return Content.corrupt("block of run " + source.get(LONG, RUN_AT) + ", expected run " + run);
        }
        if (source.get(LONG, BLOCK_AT) != block) {
            return Content.corrupt("holds block " + source.get(LONG, BLOCK_AT) + " (misdirected write)");
        }
        long generation = source.get(LONG, GENERATION_AT);
        SplittableRandom payload = payloadRandom(run, block, generation);
        for (long at = PAYLOAD_AT; at < SIZE; at += Long.BYTES) {
            if (source.get(LONG, at) != payload.nextLong()) {
                return Content.corrupt("payload of generation " + generation + " differs at byte " + at);
            }
        }
        return Content.valid(generation);
    }

    private static long crc(MemorySegment block) {
        CRC32C crc = new CRC32C();
        crc.update(block.asSlice(MAGIC_AT).asByteBuffer());
        return crc.getValue();
    }

    private static boolean isAllZero(MemorySegment block) {
        for (long at = 0; at < SIZE; at += Long.BYTES) {
            if (block.get(LONG, at) != 0) {
                return false;
            }
        }
        return true;
    }

    private static SplittableRandom payloadRandom(long run, long block, long generation) {
        return new SplittableRandom(run * 0x9E3779B97F4A7C15L ^ block * 0xC2B2AE3D27D4EB4FL ^ generation);
    }

    private static void checkSize(MemorySegment segment) {
        if (segment.byteSize() != SIZE) {
            throw new IllegalArgumentException("a checked block is " + SIZE + " bytes, got " + segment.byteSize());
        }
    }
}
