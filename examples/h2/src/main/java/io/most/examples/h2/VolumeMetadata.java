package io.most.examples.h2;

import io.most.errors.ConfigurationException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.UUID;
import java.util.zip.CRC32C;

/**
 * Reads, creates and commits a volume's metadata: the two {@link Superblock} slots and the directory
 * they point to. A commit is copy-on-write: the directory goes to fresh blocks, which are forced
 * before the superblock naming them is written to the older slot and forced. The directory blocks of
 * both slots stay reserved, so either slot can be read back after a crash. Not thread-safe: the
 * volume serializes commits.
 */
final class VolumeMetadata {
    /** The smallest volume accepted: two superblocks, a directory block and room for data. */
    static final long MIN_BLOCKS = 16;

    private final BlockSpace space;
    private Superblock current;
    private Superblock previous;

    private VolumeMetadata(BlockSpace space, Superblock current, Superblock previous) {
        this.space = space;
        this.current = current;
        this.previous = previous;
    }

    /** What {@link #open} found: the metadata and the directory of the newest valid commit. */
    record Opened(VolumeMetadata metadata, TreeMap<String, FileNode> entries, boolean created) {
    }

    /**
     * Opens the volume on {@code space}: the newest superblock that checks out and whose directory
     * checks out, or, on a blank backing and if {@code create}, a new empty volume.
     *
     * @throws VolumeFormatException  if the backing holds something else, or is blank and {@code create} is false
     * @throws ConfigurationException if a new volume would be smaller than {@link #MIN_BLOCKS} blocks
     */
    static Opened open(BlockSpace space, boolean create) {
        List<Superblock> valid = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        boolean blank = true;
        boolean ours = false;
        for (long slot = 0; slot < Superblock.SLOTS && slot < space.blockCount(); slot++) {
            switch (readSlot(space, slot)) {
                case Superblock.Valid v -> {
                    valid.add(v.superblock());
                    blank = false;
                }
                case Superblock.Invalid inv -> {
                    problems.add("slot " + slot + ": " + inv.reason());
                    blank = false;
                    ours |= inv.ourMagic();
                }
                case Superblock.Blank b -> problems.add("slot " + slot + ": blank");
            }
        }
        if (valid.isEmpty()) {
            if (blank && create && !space.tracksAllocation() || blank && create && isEmptyStore(space)) {
                return new Opened(format(space), new TreeMap<>(), true);
            }
            if (blank) {
                throw new VolumeFormatException("no MOST H2 volume on " + space.describe()
                        + (create && space.tracksAllocation() ? " and the page store already holds other pages"
                        : "; create one (VolumeOptions.create(true), or -Dmost.h2.create=true)"));
            }
            throw new VolumeFormatException(space.describe() + " is not a usable MOST H2 volume ("
                    + String.join("; ", problems) + ")" + (ours ? "" : ": it holds other data"));
        }
        valid.sort((a, b) -> Long.compare(b.generation(), a.generation()));
        VolumeFormatException failure = null;
        for (int i = 0; i < valid.size(); i++) {
            Superblock sb = valid.get(i);
            if (sb.blockCount() != space.blockCount()) {
                throw new VolumeFormatException("the MOST H2 volume on " + space.describe() + " was created with "
                        + sb.blockCount() + " blocks of " + sb.blockBytes() + " bytes; open it with that capacity");
            }
            try {
                TreeMap<String, FileNode> entries = readDirectory(space, sb);
                Superblock other = i + 1 < valid.size() && valid.get(i + 1).volumeId().equals(sb.volumeId())
                        ? valid.get(i + 1) : null;
                return new Opened(new VolumeMetadata(space, sb, other), entries, false);
            } catch (VolumeFormatException e) {
                failure = e; // the older slot may still be whole
            }
        }
        throw failure;
    }

    /** The volume's identity, fixed when it was created. */
    UUID volumeId() {
        return current.volumeId();
    }

    /** Blocks a commit of the current directory takes, doubled for growth: what data must leave free. */
    long commitReserve() {
        long blocks = 0;
        for (int n : current.runLengths()) {
            blocks += n;
        }
        return 2 * blocks + 2;
    }

    /** Generation of the newest durable commit. */
    long generation() {
        return current.generation();
    }

    /** Every block the metadata reserves (superblock slots and both slots' directory blocks). */
    void forEachReserved(java.util.function.LongConsumer action) {
        for (long slot = 0; slot < Superblock.SLOTS; slot++) {
            action.accept(slot);
        }
        forEachDirectoryBlock(current, action);
        if (previous != null) {
            forEachDirectoryBlock(previous, action);
        }
    }

    /**
     * Makes {@code directory} the durable state: writes it to blocks from {@code allocator}, forces,
     * writes and forces the next superblock. Returns the blocks no slot names any more (the older
     * slot's directory), which the caller frees.
     */
    List<Long> commit(byte[] directory, BlockAllocator allocator) {
        int blockBytes = space.blockBytes();
        int blocks = Math.max(1, (int) ((directory.length + (long) blockBytes - 1) / blockBytes));
        List<Long> allocated = new ArrayList<>(blocks);
        try {
            long preferred = -1;
            for (int i = 0; i < blocks; i++) {
                long b = allocator.allocate(preferred, 0);
                space.claim(b);
                allocated.add(b);
                preferred = b + 1;
            }
            long[][] runs = runs(allocated);
            if (runs[0].length > Superblock.maxRuns(blockBytes)) {
                throw new io.most.errors.OutOfSpaceException("the MOST volume is too fragmented to store its directory in "
                        + Superblock.maxRuns(blockBytes) + " runs; free space or use a larger device");
            }
            ByteBuffer data = ByteBuffer.allocate(blocks * blockBytes).put(directory).clear();
            int at = 0;
            for (int r = 0; r < runs[0].length; r++) {
                int n = (int) runs[1][r];
                space.writeRun(runs[0][r], data.slice(at * blockBytes, n * blockBytes));
                at += n;
            }
            space.force();
            int[] lengths = new int[runs[1].length];
            for (int r = 0; r < lengths.length; r++) {
                lengths[r] = (int) runs[1][r];
            }
            Superblock next = new Superblock(current.volumeId(), current.generation() + 1, blockBytes,
                    space.blockCount(), directory.length, crc(directory), runs[0], lengths);
            writeSuperblock(next);
            List<Long> unnamed = new ArrayList<>();
            if (previous != null) {
                forEachDirectoryBlock(previous, unnamed::add);
            }
            previous = current;
            current = next;
            return unnamed;
        } catch (RuntimeException e) {
            for (long b : allocated) {
                space.release(b);
                allocator.rollback(b);
            }
            throw e;
        }
    }

    private static boolean isEmptyStore(BlockSpace space) {
        for (long b = 0; b < space.blockCount(); b++) {
            if (space.inUse(b)) {
                return false;
            }
        }
        return true;
    }

    private static VolumeMetadata format(BlockSpace space) {
        if (space.blockCount() < MIN_BLOCKS) {
            throw new ConfigurationException(space.describe() + " is too small for a MOST H2 volume: it needs at least "
                    + MIN_BLOCKS + " blocks of " + space.blockBytes() + " bytes (" + MIN_BLOCKS * space.blockBytes()
                    + " bytes), and H2 needs room for its data beyond that");
        }
        if (space.blockCount() > Integer.MAX_VALUE) {
            throw new ConfigurationException(space.describe() + " has more than 2^31 blocks; use larger blocks or pages");
        }
        for (long slot = 0; slot < Superblock.SLOTS; slot++) {
            space.claim(slot);
        }
        // generation 0 names an empty directory in no blocks: the first commit writes a real one
        Superblock zero = new Superblock(UUID.randomUUID(), 0, space.blockBytes(), space.blockCount(), 0,
                crc(new byte[0]), new long[0], new int[0]);
        VolumeMetadata metadata = new VolumeMetadata(space, zero, null);
        metadata.writeSuperblock(zero);
        return metadata;
    }

    private void writeSuperblock(Superblock sb) {
        space.writeRun(sb.slot(), sb.encode());
        space.force();
    }

    private static Superblock.Slot readSlot(BlockSpace space, long slot) {
        if (!space.inUse(slot)) {
            return new Superblock.Blank();
        }
        ByteBuffer block = ByteBuffer.allocate(space.blockBytes());
        space.readRun(slot, block);
        return Superblock.decode(block, space.blockBytes());
    }

    private static TreeMap<String, FileNode> readDirectory(BlockSpace space, Superblock sb) {
        long total = 0;
        for (int r = 0; r < sb.runStarts().length; r++) {
            long start = sb.runStarts()[r];
            int n = sb.runLengths()[r];
            if (start < Superblock.SLOTS || n <= 0 || start + n > space.blockCount()) {
                throw new VolumeFormatException("superblock generation " + sb.generation() + " names directory blocks ["
                        + start + ", +" + n + ") outside " + space.describe());
            }
            total += (long) n * space.blockBytes();
        }
        if (sb.directoryBytes() > total || sb.directoryBytes() > Integer.MAX_VALUE) {
            throw new VolumeFormatException("superblock generation " + sb.generation() + " names a directory of "
                    + sb.directoryBytes() + " bytes in " + total + " bytes of blocks");
        }
        ByteBuffer data = ByteBuffer.allocate((int) total);
        for (int r = 0; r < sb.runStarts().length; r++) {
            space.readRun(sb.runStarts()[r], data.slice(data.position(), sb.runLengths()[r] * space.blockBytes()));
            data.position(data.position() + sb.runLengths()[r] * space.blockBytes());
        }
        byte[] directory = new byte[(int) sb.directoryBytes()];
        data.get(0, directory);
        if (crc(directory) != sb.directoryCrc()) {
            throw new VolumeFormatException("the directory of MOST H2 volume generation " + sb.generation() + " on "
                    + space.describe() + " fails its checksum (corrupt)");
        }
        try {
            return DirectoryCodec.decode(directory, space.blockCount(), space.blockBytes());
        } catch (IOException e) {
            throw new VolumeFormatException("the directory of MOST H2 volume generation " + sb.generation()
                    + " is inconsistent: " + e.getMessage(), e);
        }
    }

    private static void forEachDirectoryBlock(Superblock sb, java.util.function.LongConsumer action) {
        for (int r = 0; r < sb.runStarts().length; r++) {
            for (int i = 0; i < sb.runLengths()[r]; i++) {
                action.accept(sb.runStarts()[r] + i);
            }
        }
    }

    /** Consecutive blocks merged: {starts[], lengths[]}. */
    private static long[][] runs(List<Long> blocks) {
        List<long[]> runs = new ArrayList<>();
        for (long b : blocks) {
            long[] last = runs.isEmpty() ? null : runs.getLast();
            if (last != null && last[0] + last[1] == b) {
                last[1]++;
            } else {
                runs.add(new long[] {b, 1});
            }
        }
        long[][] out = new long[2][runs.size()];
        for (int i = 0; i < runs.size(); i++) {
            out[0][i] = runs.get(i)[0];
            out[1][i] = runs.get(i)[1];
        }
        return out;
    }

    private static int crc(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return (int) crc.getValue();
    }
}
