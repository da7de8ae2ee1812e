package io.most.buffer;

import io.most.MigrationPath;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/** The buffer manager's event counters: hits in striped plain cells (the hot path), the rest in adders. */
final class BufferCounters {
    final StripedCounter dramHits;
    final StripedCounter pmHits;
    final LongAdder misses = new LongAdder();
    final LongAdder pmWrites = new LongAdder();
    /** PM writes that persisted only their changed lines ({@link PmRedoLog}), a subset of {@link #pmWrites}. */
    final LongAdder pmLineUpdates = new LongAdder();
    /**
     * Line updates made as delta frames over the block device's version of the page
     * ({@link PmDeltaTable}: a write of a page loaded, admitted or written back clean), a subset of
     * {@link #pmLineUpdates}; the rest went through redo records over a frame durable in every line.
     */
    final LongAdder pmDeltaWrites = new LongAdder();
    /** Bytes of PM made durable by page writes (lines, descriptors and headers, or whole pages). */
    final LongAdder pmBytesPersisted = new LongAdder();
    /**
     * Writes of a PM page that persisted the whole page (sealed in place over a clean frame not known
     * durable, or out of place when a line update declined), a subset of {@link #pmWrites}.
     */
    final LongAdder pmWholePageWrites = new LongAdder();
    /** Dirty DRAM pages written whole into a PM frame on their eviction or write-back, a subset of {@link #pmWrites}. */
    final LongAdder pmWholePageWriteBacks = new LongAdder();
    /**
     * Page images copied into PM clean (loads from the block device, clean DRAM pages admitted) and not
     * persisted, a subset of {@link #pmWrites}: the rest of it is line updates and whole-page persists.
     */
    final LongAdder pmInstalls = new LongAdder();
    /** Dirty PM pages written to the block device by an eviction on a caller's path. */
    final LongAdder pmWriteBacksForeground = new LongAdder();
    /** Dirty PM pages written to the block device by the background cleaner, ahead of their eviction. */
    final LongAdder pmWriteBacksBackground = new LongAdder();
    final LongAdder ssdReads = new LongAdder();
    final LongAdder ssdWrites = new LongAdder();
    final LongAdder optimisticRetries = new LongAdder();
    /**
     * Reads of clean PM pages that load admission served from the block device ({@link OffloadedRead}),
     * a subset of {@link #misses} and {@link #ssdReads}: they read the block device.
     */
    final LongAdder readsOffloaded = new LongAdder();
    /** Pages classic caching would have installed in PM that data admission kept out ({@link LoadAdmission}). */
    final LongAdder admissionsSkipped = new LongAdder();
    private final Map<MigrationPath, LongAdder> migrations = new EnumMap<>(MigrationPath.class);

    /** Counters of their own for everything. */
    BufferCounters() {
        this(new StripedCounter(), new StripedCounter());
    }

    /** Counters that count hits in the given ones (the pools', {@link FramePool#hits()}). */
    BufferCounters(StripedCounter dramHits, StripedCounter pmHits) {
        this.dramHits = dramHits;
        this.pmHits = pmHits;
        for (MigrationPath p : MigrationPath.values()) {
            migrations.put(p, new LongAdder());
        }
    }

    void migrated(MigrationPath path) {
        migrations.get(path).increment();
    }

    Map<MigrationPath, Long> migrationSnapshot() {
        Map<MigrationPath, Long> copy = new EnumMap<>(MigrationPath.class);
        migrations.forEach((path, n) -> copy.put(path, n.sum()));
        return copy;
    }

    /** Page accesses so far (the tuner's throughput measure). */
    long accesses() {
        return dramHits.sum() + pmHits.sum() + misses.sum();
    }

    /** Page writes to PM and SSD so far (the tuner's optional wear term). */
    long deviceWrites() {
        return pmWrites.sum() + ssdWrites.sum();
    }
}
