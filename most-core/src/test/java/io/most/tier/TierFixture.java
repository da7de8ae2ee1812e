package io.most.tier;

import io.most.device.BlockDevice;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Small volumes and self-checking block contents for the tier tests. */
final class TierFixture {
    static final int BLOCK = 4096;
    static final int SEGMENT = 64 * 1024;
    /** How long {@link #await} waits for a background thread's effect: generous, the tests assert no timing. */
    static final Duration PATIENCE = Duration.ofSeconds(30);

    private TierFixture() {
    }

    /** 64 KiB segments of 4 KiB subpages, no background thread (tests drive the optimizer). */
    static TierConfig.Builder small() {
        return TierConfig.builder().segmentSize(SEGMENT).subpageSize(BLOCK).optimizerInterval(Duration.ZERO)
                .migrationBytesPerSecond(1L << 40);
    }

    /** Fills a block with bytes derived from (block number, version); the version is in the first 8 bytes. */
    static void stamp(MemorySegment block, long blockNo, long version) {
        block.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, version);
        block.set(ValueLayout.JAVA_LONG_UNALIGNED, 8, blockNo);
        SplittableRandom r = new SplittableRandom(blockNo * 1_000_003 + version);
        for (long i = 16; i + 8 <= block.byteSize(); i += 8) {
            block.set(ValueLayout.JAVA_LONG_UNALIGNED, i, r.nextLong());
        }
    }

    /**
     * The version stamped into {@code block}: 0 if it is all zeros (never written), -1 if its bytes are
     * not a valid stamp of {@code blockNo}.
     */
    static long versionOf(MemorySegment block, long blockNo) {
        long version = block.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
        if (version == 0) {
            for (long i = 0; i < block.byteSize(); i += 8) {
                if (block.get(ValueLayout.JAVA_LONG_UNALIGNED, i) != 0) {
                    return -1;
                }
            }
            return 0;
        }
        if (block.get(ValueLayout.JAVA_LONG_UNALIGNED, 8) != blockNo) {
            return -1;
        }
        SplittableRandom r = new SplittableRandom(blockNo * 1_000_003 + version);
        for (long i = 16; i + 8 <= block.byteSize(); i += 8) {
            if (block.get(ValueLayout.JAVA_LONG_UNALIGNED, i) != r.nextLong()) {
                return -1;
            }
        }
        return version;
    }

    /** Reads block {@code blockNo} of {@code device} into {@code block} and returns its {@link #versionOf version}. */
    static long readVersion(BlockDevice device, MemorySegment block, long blockNo) {
        device.read(blockNo * block.byteSize(), block);
        return versionOf(block, blockNo);
    }

    /** Writes {@code version} of block {@code blockNo} to {@code device}, through {@code block}. */
    static void writeVersion(BlockDevice device, MemorySegment block, long blockNo, long version) {
        stamp(block, blockNo, version);
        device.write(blockNo * block.byteSize(), block);
    }

    /** Waits until {@code condition} holds, polling every 20 ms; fails after {@link #PATIENCE}. */
    static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + PATIENCE + ": " + what);
            }
            LockSupport.parkNanos(20_000_000);
        }
    }
}
