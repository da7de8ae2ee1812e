package io.most.examples.h2;

import io.most.PageStoreStats;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;

/**
 * Fixed-size blocks addressed by index: what a {@link MostVolume} lays its files out on. A block
 * device backing maps block {@code i} to device offset {@code i * blockBytes}; a page store backing
 * maps it to page id {@code i}. Implementations move bytes only; the volume decides which blocks are
 * used ({@link #claim}/{@link #release} tell a backing that keeps its own allocation state).
 *
 * <p>Thread-safe: concurrent reads and writes of different blocks run in parallel; partial writes of
 * the same block are serialized by the backing (read-modify-write must not lose a neighbour's bytes).
 */
interface BlockSpace extends AutoCloseable {

    /** Bytes per block. */
    int blockBytes();

    /** Number of blocks. */
    long blockCount();

    /**
     * Reads {@code dst.remaining()} bytes from block {@code block} starting {@code offset} bytes into
     * it; the range must lie within the block. Advances {@code dst}'s position.
     */
    void read(long block, int offset, ByteBuffer dst);

    /**
     * Writes {@code src.remaining()} bytes into block {@code block} starting {@code offset} bytes into
     * it (read-modify-write where the backing needs whole blocks); the range must lie within the block.
     * Advances {@code src}'s position. Durable after the next {@link #force()}.
     */
    void write(long block, int offset, ByteBuffer src);

    /**
     * Reads whole blocks {@code first, first + 1, ...} into {@code dst} ({@code dst.remaining()} is a
     * multiple of {@link #blockBytes()}). Advances {@code dst}'s position.
     */
    void readRun(long first, ByteBuffer dst);

    /**
     * One part of a file read: {@code buffer.remaining()} bytes from block {@code block} starting
     * {@code offset} bytes into it; a part that starts a block and covers whole blocks may run on over
     * the blocks that follow {@code block} (a run, as in {@link #readRun}).
     */
    record Part(long block, int offset, ByteBuffer buffer) {
    }

    /**
     * Reads every part of one file read, filling each part's buffer. The default reads them in order,
     * a run in one request; a backing whose blocks are fetched one at a time may fetch them at once.
     */
    default void readAll(List<Part> parts) {
        for (Part part : parts) {
            if (part.offset() == 0 && part.buffer().remaining() % blockBytes() == 0) {
                readRun(part.block(), part.buffer());
            } else {
                read(part.block(), part.offset(), part.buffer());
            }
        }
    }

    /** Writes whole blocks {@code first, first + 1, ...} from {@code src}; see {@link #readRun}. */
    void writeRun(long first, ByteBuffer src);

    /**
     * Block {@code block} becomes used by the volume. Its content afterwards is zeros if
     * {@link #tracksAllocation()}, otherwise whatever the block held before (the volume zero-fills
     * what it does not overwrite).
     */
    void claim(long block);

    /**
     * Whether the backing keeps its own allocation state, in which case {@link #claim} and
     * {@link #release} change it, a claimed block reads as zeros, and only blocks {@link #inUse} can
     * be read. A page store does; a block device does not (every block exists, holding old bytes).
     */
    boolean tracksAllocation();

    /** Block {@code block} is no longer used by the volume. */
    void release(long block);

    /** Whether the backing considers {@code block} in use; always true without {@link #tracksAllocation()}. */
    boolean inUse(long block);

    /** Makes every completed write durable. */
    void force();

    /** The page store's counters (hits per tier, misses, migrations) if the backing is one. */
    default Optional<PageStoreStats> pageStoreStats() {
        return Optional.empty();
    }

    /** What the backing is, for messages: e.g. {@code "O_DIRECT device h2.most (4096-byte blocks)"}. */
    String describe();

    /** Releases the backing (closes the device or the page store). */
    @Override
    void close();
}
