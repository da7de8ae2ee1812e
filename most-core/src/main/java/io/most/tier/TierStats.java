package io.most.tier;

/**
 * A snapshot of a {@link TieredVolume}'s state and counters. Counters are monotonic since open;
 * fields marked "gauge" are current values.
 *
 * @param policy                     the placement policy's name
 * @param offloadRatio               gauge: share of mirrored traffic sent to the capacity device
 * @param performanceLatencyNanos    gauge: measured latency EWMA of the performance device (NaN before
 *                                   its first request)
 * @param capacityLatencyNanos       gauge: measured latency EWMA of the capacity device
 * @param segmentBytes               bytes per segment
 * @param logicalSegments            segments of the address space
 * @param tieredPerformanceSegments  gauge: segments with one copy, on the performance device
 * @param tieredCapacitySegments     gauge: segments with one copy, on the capacity device
 * @param mirroredSegments           gauge: segments with a copy on each device
 * @param freePerformanceSlots       gauge: unused segment slots of the performance device
 * @param freeCapacitySlots          gauge: unused segment slots of the capacity device
 * @param migratedBytesToPerformance bytes copied to the performance device by migration, mirroring and
 *                                   unmirroring
 * @param migratedBytesToCapacity    bytes copied to the capacity device by the same
 * @param migrations                 completed mirror, unmirror and move operations
 * @param cleanSubpages              gauge: subpages of mirrored segments valid on both devices
 * @param invalidSubpages            gauge: subpages of mirrored segments valid on one device only
 * @param cleaningWrites             writes by the cleaner (one per re-mirrored run of subpages)
 * @param cleaningBytes              bytes written by the cleaner
 * @param readRetries                mirrored reads served by the other copy after the chosen one failed
 * @param writeRetries               mirrored writes completed on one copy after the other failed
 * @param zeroedBytes                bytes of reused slots zeroed for new segments
 * @param journalBatches             metadata journal batches written
 * @param journalBytes               metadata journal bytes written
 * @param intentRecords              mirrored-write intent records journaled
 * @param checkpoints                metadata checkpoints written
 * @param checkpointNanos            time spent taking them (snapshot, forces, header, read-back), failed
 *                                   ones included: the metadata log's lock is held that long, so intents
 *                                   and commits wait
 * @param resyncedSubpages           subpages recovery found possibly different on the two copies and
 *                                   now serves from the performance copy only
 * @param backgroundErrors           failed optimizer steps (migration, cleaning, checkpoint)
 */
public record TierStats(
        String policy,
        double offloadRatio,
        double performanceLatencyNanos,
        double capacityLatencyNanos,
        int segmentBytes,
        long logicalSegments,
        long tieredPerformanceSegments,
        long tieredCapacitySegments,
        long mirroredSegments,
        long freePerformanceSlots,
        long freeCapacitySlots,
        long migratedBytesToPerformance,
        long migratedBytesToCapacity,
        long migrations,
        long cleanSubpages,
        long invalidSubpages,
        long cleaningWrites,
        long cleaningBytes,
        long readRetries,
        long writeRetries,
        long zeroedBytes,
        long journalBatches,
        long journalBytes,
        long intentRecords,
        long checkpoints,
        long checkpointNanos,
        long resyncedSubpages,
        long backgroundErrors) {

    /** Bytes in the mirrored class (each held twice). */
    public long mirroredBytes() {
        return mirroredSegments * segmentBytes;
    }

    /** All bytes copied between the devices by migration. */
    public long migratedBytes() {
        return migratedBytesToPerformance + migratedBytesToCapacity;
    }
}
