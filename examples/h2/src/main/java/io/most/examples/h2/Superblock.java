package io.most.examples.h2;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.UUID;
import java.util.zip.CRC32C;

/**
 * The root of a volume's metadata, stored in two slots (volume blocks 0 and 1) written alternately:
 * generation {@code g} goes to slot {@code g % 2}, so a torn or interrupted superblock write leaves
 * the other slot, one commit older, intact. It names the volume (format version, identity, geometry)
 * and where the directory lives (runs of volume blocks, its length and CRC32C). The superblock itself
 * ends with a CRC32C of everything before it.
 *
 * <pre>
 *  0 magic "MOSTH2FS"   8 format version   12 block bytes   16 block count
 * 24 volume id (UUID, 16 bytes)   40 generation   48 directory bytes   56 directory CRC32C
 * 60 run count   64 runs: (start long, length int) ...   last 4 bytes: CRC32C of the rest
 * </pre>
 */
record Superblock(UUID volumeId, long generation, int blockBytes, long blockCount,
                  long directoryBytes, int directoryCrc, long[] runStarts, int[] runLengths) {

    static final long MAGIC = 0x5346_3248_5453_4F4DL; // "MOSTH2FS" read as little-endian bytes
    static final int FORMAT_VERSION = 1;
    static final int SLOTS = 2;
    private static final int HEADER = 64;
    private static final int RUN_BYTES = 12;

    /** Bytes a superblock occupies at the start of its block. */
    static int encodedBytes(int blockBytes) {
        return Math.min(blockBytes, 4096);
    }

    /** How many directory runs fit a superblock in blocks of {@code blockBytes}. */
    static int maxRuns(int blockBytes) {
        return (encodedBytes(blockBytes) - HEADER - 4) / RUN_BYTES;
    }

    /** The slot (volume block) this generation is written to. */
    long slot() {
        return generation % SLOTS;
    }

    /** Encodes into a zeroed buffer of {@code blockBytes} (the whole block, ready to write). */
    ByteBuffer encode() {
        ByteBuffer b = ByteBuffer.allocate(blockBytes).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(MAGIC).putInt(FORMAT_VERSION).putInt(blockBytes).putLong(blockCount)
                .putLong(volumeId.getMostSignificantBits()).putLong(volumeId.getLeastSignificantBits())
                .putLong(generation).putLong(directoryBytes).putInt(directoryCrc).putInt(runStarts.length);
        for (int i = 0; i < runStarts.length; i++) {
            b.putLong(runStarts[i]).putInt(runLengths[i]);
        }
        int end = encodedBytes(blockBytes) - 4;
        b.putInt(end, crc(b, end));
        return b.clear();
    }

    /** What a slot holds: a valid superblock, nothing at all (a blank device), or something else. */
    sealed interface Slot permits Valid, Blank, Invalid {
    }

    /** A superblock that passed its checks. */
    record Valid(Superblock superblock) implements Slot {
    }

    /** An all-zero slot: never written. */
    record Blank() implements Slot {
    }

    /** Not a valid superblock of this format; {@code reason} says why. */
    record Invalid(String reason, boolean ourMagic) implements Slot {
    }

    /** Decodes a slot read from a block of {@code blockBytes}. */
    static Slot decode(ByteBuffer block, int blockBytes) {
        ByteBuffer b = block.duplicate().order(ByteOrder.LITTLE_ENDIAN).clear();
        int end = encodedBytes(blockBytes) - 4;
        if (allZero(b, end + 4)) {
            return new Blank();
        }
        if (b.getLong(0) != MAGIC) {
            return new Invalid("no MOST H2 volume magic", false);
        }
        int version = b.getInt(8);
        if (version != FORMAT_VERSION) {
            return new Invalid("format version " + version + " (this provider reads version " + FORMAT_VERSION + ")", true);
        }
        if (b.getInt(end) != crc(b, end)) {
            return new Invalid("superblock checksum mismatch (torn or corrupt)", true);
        }
        int storedBlockBytes = b.getInt(12);
        long blockCount = b.getLong(16);
        if (storedBlockBytes != blockBytes) {
            return new Invalid("written with " + storedBlockBytes + "-byte blocks, opened with " + blockBytes, true);
        }
        UUID id = new UUID(b.getLong(24), b.getLong(32));
        int runs = b.getInt(60);
        if (runs < 0 || runs > maxRuns(blockBytes)) {
            return new Invalid("bad directory run count " + runs, true);
        }
        long[] starts = new long[runs];
        int[] lengths = new int[runs];
        for (int i = 0; i < runs; i++) {
            starts[i] = b.getLong(HEADER + i * RUN_BYTES);
            lengths[i] = b.getInt(HEADER + i * RUN_BYTES + 8);
        }
        return new Valid(new Superblock(id, b.getLong(40), blockBytes, blockCount, b.getLong(48), b.getInt(56), starts, lengths));
    }

    private static boolean allZero(ByteBuffer b, int length) {
        for (int i = 0; i < length; i++) {
            if (b.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    private static int crc(ByteBuffer b, int length) {
        CRC32C crc = new CRC32C();
        crc.update(b.duplicate().position(0).limit(length));
        return (int) crc.getValue();
    }
}
