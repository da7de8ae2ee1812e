package io.most.tier;

import io.most.device.BlockDevice;
import io.most.device.IoRequest;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Marks the device I/O of a level's {@link Migrator} (migration and cleaning copies) so that a volume
 * below it in a stack (its capacity device is a {@link TieredVolume}) does not take it for demand.
 *
 * <p>Why: to the volume below, the level above is its only client, and a copy of the level above
 * arrives as ordinary 1 MiB reads and writes. Counted as foreground requests, one such write to the
 * slowest device of the bench's SATA profile (~72 ms against ~2.4 ms for a 4 KiB read) raised that
 * device's interval latency by a third in an interval of ~150 reads, so the lower level saw its capacity
 * device as slow whenever the level above mirrored onto it, and the copied segment gained heat it has
 * no demand for. The volume below still does the I/O and its queues still delay the level above's
 * requests (that contention is real and the level above's latency of the volume below shows it); it only
 * leaves it out of its own {@link LatencyMonitor} and {@link HotnessTracker}, as it leaves out its own
 * migrations.
 *
 * <p>The mark is a {@link ScopedValue} bound on the migrating thread for the duration of one device call;
 * a volume serves a request on the caller's thread, so the volume below sees it. Thread-safe.
 */
final class LevelAboveMigration {
    private static final ScopedValue<Boolean> ACTIVE = ScopedValue.newInstance();

    private LevelAboveMigration() {
    }

    /** Whether the current request is a copy of the level above (not demand). */
    static boolean active() {
        return ACTIVE.isBound();
    }

    /** Reads from {@code device} as migration I/O. */
    static void read(BlockDevice device, long offset, MemorySegment destination) {
        ScopedValue.where(ACTIVE, Boolean.TRUE).run(() -> device.read(offset, destination));
    }

    /** Runs a batch on {@code device} as migration I/O. */
    static void transferAll(BlockDevice device, List<IoRequest> requests) {
        ScopedValue.where(ACTIVE, Boolean.TRUE).run(() -> device.transferAll(requests));
    }

    /** Writes to {@code device} as migration I/O. */
    static void write(BlockDevice device, long offset, MemorySegment source) {
        ScopedValue.where(ACTIVE, Boolean.TRUE).run(() -> device.write(offset, source));
    }
}
