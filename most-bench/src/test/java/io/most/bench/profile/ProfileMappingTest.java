package io.most.bench.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.most.device.DeviceProfile;
import io.most.device.IoOp;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The arithmetic from measurements to profile fields, on made-up measurements. */
class ProfileMappingTest {
    private static final int MIB = 1 << 20;

    @Test
    void mapsEachFieldFromItsMeasurement() {
        List<ProbeRow> rows = List.of(
                row(IoOp.READ, false, 4096, 1, 20_000, 50_000),
                row(IoOp.READ, false, 4096, 4, 60_000, 66_000),
                row(IoOp.WRITE, false, 4096, 1, 25_000, 40_000),
                row(IoOp.WRITE, false, 4096, 4, 50_000, 80_000),
                row(IoOp.READ, true, MIB, 1, 500, 1_070_000),
                row(IoOp.READ, true, MIB, 4, 1_000, 4_000_000),
                row(IoOp.WRITE, true, MIB, 1, 400, 2_000_000),
                row(IoOp.WRITE, true, MIB, 4, 150, 9_000_000));
        DeviceProfile p = ProfileMapping.toProfile("disk", "test", rows);
        assertEquals(50_000, p.readLatencyNanos());
        assertEquals(40_000, p.writeLatencyNanos());
        assertEquals((1_070_000 - 50_000) / 1020, p.transferNanosPerKiB(), "per KiB beyond the first 4");
        assertEquals(3, p.channels(), "60k IOPS x 50 us = 3 in flight");
        assertEquals(1_000L * MIB, p.readBandwidth(), "the best read: sequential at 4 threads");
        assertEquals(400L * MIB, p.writeBandwidth(), "the best write: sequential at 1 thread");
        assertEquals(0.0, p.writeInterference());
    }

    @Test
    void channelsNeverExceedTheThreadsThatReachedTheBestIops() {
        // a stall inflated the queue-depth-1 mean: 30k IOPS x 200 us would claim 6 reads in flight from 2 threads
        List<ProbeRow> rows = List.of(row(IoOp.READ, false, 4096, 1, 5_000, 200_000),
                row(IoOp.READ, false, 4096, 2, 30_000, 60_000), row(IoOp.WRITE, false, 4096, 1, 1_000, 900_000),
                row(IoOp.READ, true, MIB, 1, 1_000, 900_000));
        assertEquals(2, ProfileMapping.toProfile("disk", "test", rows).channels());
    }

    @Test
    void aLargeReadNoSlowerThanASmallOneAddsNoTransferTime() {
        List<ProbeRow> rows = List.of(row(IoOp.READ, false, 4096, 1, 1_000, 900_000),
                row(IoOp.WRITE, false, 4096, 1, 1_000, 900_000), row(IoOp.READ, true, MIB, 1, 1_000, 800_000));
        DeviceProfile p = ProfileMapping.toProfile("disk", "test", rows);
        assertEquals(0, p.transferNanosPerKiB());
        assertEquals(1, p.channels());
    }

    @Test
    void missingQueueDepthOneMeasurementIsNamed() {
        List<ProbeRow> rows = List.of(row(IoOp.READ, false, 4096, 2, 1_000, 900_000));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ProfileMapping.toProfile("disk", "test", rows));
        assertEquals("no measurement of 4 KiB random reads with 1 thread", e.getMessage());
    }

    private static ProbeRow row(IoOp op, boolean sequential, int block, int threads, double ops, double meanNanos) {
        return new ProbeRow(op, sequential, block, threads, ops, meanNanos, meanNanos, 2 * meanNanos, 0);
    }
}
