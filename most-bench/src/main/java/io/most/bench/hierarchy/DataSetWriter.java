package io.most.bench.hierarchy;

import io.most.bench.Units;
import io.most.device.BlockDevice;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Writes a file-backed device end to end before a run. A freshly preallocated ext4 file consists of
 * unwritten extents that O_DIRECT reads answer with zeros without touching the disk, and a fresh
 * mapping faults in zero pages; either would make reads look impossibly fast. fio lays out its file
 * the same way.
 */
public final class DataSetWriter {
    private static final long CHUNK = 1 << 20;

    private DataSetWriter() {
    }

    /** Fills all of {@code device} with pseudo-random bytes and forces it. */
    public static void fill(BlockDevice device, PrintStream log) {
        long start = System.nanoTime();
        log.printf(Locale.ROOT, "preparing %s: writing the %s data set once ... ", device.name(),
                Units.formatBytes(device.capacity()));
        log.flush();
        long chunk = Math.max(device.blockSize(), CHUNK - CHUNK % device.blockSize());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = device.allocate(arena, chunk);
            SplittableRandom random = new SplittableRandom(0x5eed);
            for (long i = 0; i < chunk; i += Long.BYTES) {
                buffer.set(ValueLayout.JAVA_LONG_UNALIGNED, i, random.nextLong());
            }
            for (long offset = 0; offset < device.capacity(); offset += chunk) {
                long length = Math.min(chunk, device.capacity() - offset);
                device.write(offset, buffer.asSlice(0, length));
            }
            device.force();
        }
        log.printf(Locale.ROOT, "%.2f s%n", (System.nanoTime() - start) / 1e9);
    }
}
