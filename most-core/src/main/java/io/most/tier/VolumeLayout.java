package io.most.tier;

import io.most.tier.policy.Tier;

import io.most.errors.ConfigurationException;
import io.most.device.BlockDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.UUID;

/**
 * Where everything of a volume lives on its two devices, and the superblock that records it.
 *
 * <pre>
 * performance device                         capacity device
 *   block 0, 1    superblock (two copies)      block 0, 1    superblock (two copies)
 *   block 2, 3    watermarks (alternating)     2 blocks ..   data slots
 *   checkpoint slot 0, checkpoint slot 1
 *   journal
 *   data slots
 * </pre>
 *
 * Both devices carry the same superblock — magic, format version, the volume's id and salt, the
 * geometry — differing only in the device's role, so a device of another volume, a device in the
 * wrong role, or a resized device is recognised on open. A checkpoint slot holds the header block
 * and the state of every segment (8 bytes, plus the subpage bits if mirrored; sized for the most
 * mirrored segments the devices can hold).
 *
 * @param volumeId        identifies the volume; both devices carry it
 * @param salt            a random number in every metadata block, so blocks of an earlier volume on
 *                        the same device never pass for this one's
 * @param perfSlots       data segments the performance device holds
 * @param capSlots        data segments the capacity device holds
 * @param logicalSegments segments of the logical address space: all slots but one, so that a new
 *                        segment always finds a slot once mirrored space is reclaimed, even while one
 *                        migration holds a slot for its copy
 */
record VolumeLayout(
        UUID volumeId,
        long salt,
        int blockSize,
        int segmentSize,
        int subpageSize,
        long perfCapacity,
        long capCapacity,
        int perfSlots,
        int capSlots,
        int logicalSegments,
        long watermarkOffset,
        long checkpointOffset,
        long checkpointBytes,
        long journalOffset,
        long journalBytes,
        long perfDataOffset,
        long capDataOffset) {

    static final long MAGIC = 0x5245_4954_5453_4F4DL; // "MOSTTIER"
    static final int VERSION = 1;
    /**
     * The device-list record ({@link TierChain}) follows the CRC'd superblock with its own CRC, so that
     * superblocks written before it existed (zeros there) still read, as the one list they can be: two
     * devices, this one in its role's position.
     */
    private static final int CHAIN_OFFSET = 144;
    private static final int CHAIN_CRC_OFFSET = CHAIN_OFFSET + 24;
    private static final long MAX_AUTO_JOURNAL = 64L << 20;
    private static final int MIN_JOURNAL_BLOCKS = 8;

    /** Plans a new volume over devices of these sizes, or explains why they are too small. */
    static VolumeLayout plan(BlockDevice perf, BlockDevice cap, TierConfig config, UUID volumeId, long salt) {
        int block = perf.blockSize();
        int seg = config.segmentSize();
        long labels = 2L * block;
        long perfUpper = perf.capacity() / seg;
        // Over a volume (an N-device list) the capacity side's data starts on a segment boundary of that
        // volume, so each of this level's slots is exactly one segment below: a slot never straddles two
        // lower segments (two lower lock stripes, two heat counters, a zeroing on first write).
        long capDataOffset = cap instanceof TieredVolume lower ? Codec.roundUp(labels, lower.segmentSize()) : labels;
        long capUpper = Math.max(0, cap.capacity() - capDataOffset) / seg;
        long words = MirrorState.wordsFor(config.subpagesPerSegment());
        long body = 8 * Math.max(1, perfUpper + capUpper) + 8 * words * Math.min(perfUpper, capUpper)
                + 8 + (long) CheckpointStore.HEAT_BYTES * Math.max(1, perfUpper + capUpper); // + the heat section
        long checkpointBytes = Codec.roundUp(block + body, block);
        long journal = config.journalBytes() == 0
                ? Math.clamp(perf.capacity() / 64 / block * block, 32L * block, MAX_AUTO_JOURNAL)
                : Codec.roundUp(config.journalBytes(), block);
        if (journal < MIN_JOURNAL_BLOCKS * (long) block) {
            throw new ConfigurationException("journal of " + journal + " bytes is too small: use at least "
                    + MIN_JOURNAL_BLOCKS * (long) block + " bytes (" + MIN_JOURNAL_BLOCKS + " blocks), or 0 for automatic");
        }
        long watermarkOffset = labels;
        long checkpointOffset = watermarkOffset + 2L * block;
        long journalOffset = checkpointOffset + 2 * checkpointBytes;
        long perfDataOffset = journalOffset + journal;
        long perfSlots = Math.max(0, perf.capacity() - perfDataOffset) / seg;
        if (perfSlots < 1) {
            throw new ConfigurationException("performance device '" + perf.name() + "' of " + perf.capacity()
                    + " bytes is too small: the volume's metadata takes " + perfDataOffset + " bytes (superblocks "
                    + labels + ", watermarks " + 2L * block + ", two checkpoints of " + checkpointBytes + ", journal "
                    + journal + ") and at least one segment of " + seg + " bytes must follow; use a device of at least "
                    + (perfDataOffset + seg) + " bytes, a smaller journalBytes, or larger segments");
        }
        long capSlots = capUpper;
        if (capSlots < 1) {
            throw new ConfigurationException("capacity device '" + cap.name() + "' of " + cap.capacity()
                    + " bytes is too small: it needs " + capDataOffset + " bytes of superblock and at least one segment"
                    + " of " + seg + " bytes; use a device of at least " + (capDataOffset + seg) + " bytes");
        }
        long logical = perfSlots + capSlots - 1;
        if (perfSlots + capSlots > Integer.MAX_VALUE) {
            throw new ConfigurationException("devices of " + perf.capacity() + " and " + cap.capacity()
                    + " bytes hold more than " + Integer.MAX_VALUE + " segments of " + seg + " bytes: use larger segments");
        }
        return new VolumeLayout(volumeId, salt, block, seg, config.subpageSize(), perf.capacity(), cap.capacity(),
                (int) perfSlots, (int) capSlots, (int) Math.max(1, logical), watermarkOffset, checkpointOffset,
                checkpointBytes, journalOffset, journal, perfDataOffset, capDataOffset);
    }

    /** Bytes of the logical address space. */
    long logicalBytes() {
        return (long) logicalSegments * segmentSize;
    }

    int slots(Tier tier) {
        return tier == Tier.PERFORMANCE ? perfSlots : capSlots;
    }

    /** Byte offset of {@code slot} on {@code tier}'s device. */
    long slotOffset(Tier tier, int slot) {
        return (tier == Tier.PERFORMANCE ? perfDataOffset : capDataOffset) + (long) slot * segmentSize;
    }

    /** What block 0/1 of a device holds. */
    enum Found { BLANK, FOREIGN, VOLUME }

    /**
     * A device's superblock as found on open.
     *
     * @param ready false while the volume is being formatted: it holds no data yet
     * @param chain the device's place in its volume's device list, or null if the superblock predates
     *              the record (a two-device volume)
     */
    record Label(Found found, Tier role, boolean ready, VolumeLayout layout, TierChain chain) {
    }

    /**
     * Writes this volume's superblock, in {@code role}, to blocks 0 and 1 of {@code device}, and
     * forces. Formatting writes the performance device's superblock twice: first not {@code ready},
     * last (after everything else is durable) ready.
     */
    void writeLabel(BlockDevice device, Tier role, boolean ready, TierChain chain) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment b = device.allocate(arena, blockSize);
            b.set(Codec.LONG, 0, MAGIC);
            b.set(Codec.INT, 8, VERSION);
            b.set(Codec.INT, 12, role.ordinal());
            b.set(Codec.LONG, 16, volumeId.getMostSignificantBits());
            b.set(Codec.LONG, 24, volumeId.getLeastSignificantBits());
            b.set(Codec.LONG, 32, salt);
            b.set(Codec.INT, 40, blockSize);
            b.set(Codec.INT, 44, segmentSize);
            b.set(Codec.INT, 48, subpageSize);
            b.set(Codec.INT, 52, logicalSegments);
            b.set(Codec.LONG, 56, perfCapacity);
            b.set(Codec.LONG, 64, capCapacity);
            b.set(Codec.INT, 72, perfSlots);
            b.set(Codec.INT, 76, capSlots);
            b.set(Codec.LONG, 80, watermarkOffset);
            b.set(Codec.LONG, 88, checkpointOffset);
            b.set(Codec.LONG, 96, checkpointBytes);
            b.set(Codec.LONG, 104, journalOffset);
            b.set(Codec.LONG, 112, journalBytes);
            b.set(Codec.LONG, 120, perfDataOffset);
            b.set(Codec.LONG, 128, capDataOffset);
            b.set(Codec.INT, 136, ready ? 1 : 0);
            b.set(Codec.INT, 140, Codec.crc(b.asSlice(0, 140)));
            b.set(Codec.LONG, CHAIN_OFFSET, chain.id().getMostSignificantBits());
            b.set(Codec.LONG, CHAIN_OFFSET + 8, chain.id().getLeastSignificantBits());
            b.set(Codec.INT, CHAIN_OFFSET + 16, chain.position());
            b.set(Codec.INT, CHAIN_OFFSET + 20, chain.length());
            b.set(Codec.INT, CHAIN_CRC_OFFSET, Codec.crc(b.asSlice(CHAIN_OFFSET, CHAIN_CRC_OFFSET - CHAIN_OFFSET)));
            device.write(0, b);
            device.write(blockSize, b);
            device.force();
        }
    }

    /** Reads the superblock of {@code device}; the copy in block 1 stands in for a damaged block 0. */
    static Label readLabel(BlockDevice device) {
        int block = device.blockSize();
        if (device.capacity() < 2L * block) {
            return new Label(Found.FOREIGN, null, false, null, null);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment b = device.allocate(arena, block);
            boolean blank = true;
            for (int copy = 0; copy < 2; copy++) {
                device.read((long) copy * block, b);
                if (b.get(Codec.LONG, 0) == MAGIC && b.get(Codec.INT, 140) == Codec.crc(b.asSlice(0, 140))) {
                    int version = b.get(Codec.INT, 8);
                    if (version != VERSION) {
                        throw new ConfigurationException("device '" + device.name() + "' holds a tiered volume of format "
                                + version + "; this build reads format " + VERSION);
                    }
                    int role = b.get(Codec.INT, 12);
                    VolumeLayout layout = new VolumeLayout(new UUID(b.get(Codec.LONG, 16), b.get(Codec.LONG, 24)),
                            b.get(Codec.LONG, 32), b.get(Codec.INT, 40), b.get(Codec.INT, 44), b.get(Codec.INT, 48),
                            b.get(Codec.LONG, 56), b.get(Codec.LONG, 64), b.get(Codec.INT, 72), b.get(Codec.INT, 76),
                            b.get(Codec.INT, 52), b.get(Codec.LONG, 80), b.get(Codec.LONG, 88), b.get(Codec.LONG, 96),
                            b.get(Codec.LONG, 104), b.get(Codec.LONG, 112), b.get(Codec.LONG, 120),
                            b.get(Codec.LONG, 128));
                    return new Label(Found.VOLUME, role == 0 ? Tier.PERFORMANCE : Tier.CAPACITY,
                            b.get(Codec.INT, 136) == 1, layout, readChain(b));
                }
                blank &= Codec.isZero(b);
            }
            return new Label(blank ? Found.BLANK : Found.FOREIGN, null, false, null, null);
        }
    }

    /** The device-list record of a superblock block, or null if it has none (written before it existed). */
    private static TierChain readChain(MemorySegment b) {
        int length = b.get(Codec.INT, CHAIN_OFFSET + 20);
        int position = b.get(Codec.INT, CHAIN_OFFSET + 16);
        if (b.get(Codec.INT, CHAIN_CRC_OFFSET) != Codec.crc(b.asSlice(CHAIN_OFFSET, CHAIN_CRC_OFFSET - CHAIN_OFFSET))
                || length < 2 || position < 0 || position >= length) {
            return null;
        }
        return new TierChain(new UUID(b.get(Codec.LONG, CHAIN_OFFSET), b.get(Codec.LONG, CHAIN_OFFSET + 8)), position,
                length);
    }
}
