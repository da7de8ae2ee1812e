package io.most.bench.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The driver-or-devices verdict on fed-in counts of a 4-second window, shaped like the runs it tells
 * apart: {@code most-rand-read} at 2.0x on {@code optane-nvme}, whose slowest device (the NVMe at x20)
 * serves a read in 1,640 us unqueued (1,740 us with the wake-up allowance).
 */
class DriverLimitTest {
    private static final long WINDOW = 4_000_000_000L;
    private static final double NVME = 1_740_000;

    /** Counts of {@code threads} threads all busy for the window, serving {@code opsPerSecond}, with {@code late} of them late. */
    private static Measurement.Pacing allBusy(int threads, double opsPerSecond, double lateShare) {
        long issued = (long) (opsPerSecond * WINDOW / 1e9);
        long occupied = (long) threads * WINDOW;
        return new Measurement.Pacing(issued, (long) (issued * lateShare), occupied, occupied, WINDOW);
    }

    @Test
    void aPoolSizedForTheFastDeviceLimitsTheRun() {
        // 27 threads serving 25,635 ops/s: 1.05 ms in the volume, less than one NVMe read; every operation late
        DriverLimit.Verdict v = DriverLimit.judge(27, allBusy(27, 25_635, 1.0), NVME);
        assertTrue(v.driverLimited(), v.toString());
        assertEquals(1.0, v.lateShare(), 1e-9);
        assertEquals(1.0, v.poolBusy(), 1e-9);
        assertEquals(27e9 / 25_635, v.inServiceNanos(), 1e3);
    }

    @Test
    void saturatedDevicesAreNotTheDriversLimit() {
        // 143 threads, also all busy and behind at 2.0x, but an operation queues 3.8 ms in the volume: the devices' limit
        DriverLimit.Verdict v = DriverLimit.judge(143, allBusy(143, 38_000, 1.0), NVME);
        assertFalse(v.driverLimited(), v.toString());
        assertEquals(143e9 / 38_000, v.inServiceNanos(), 1e3);
    }

    @Test
    void aLoopOnScheduleIsNotLimited() {
        // 1.0x with threads to spare: few late, the pool a third busy
        long issued = 27_000L * 4;
        DriverLimit.Verdict v = DriverLimit.judge(143, new Measurement.Pacing(issued, 100, issued * 300_000L,
                issued * 300_000L, WINDOW), NVME);
        assertFalse(v.driverLimited(), v.toString());
        assertTrue(v.poolBusy() < 0.1, v.toString());
    }

    @Test
    void aBusyPoolOnScheduleIsNotLimited() {
        // every thread busy but operations issued on time: the pool just suffices
        DriverLimit.Verdict v = DriverLimit.judge(27, allBusy(27, 25_635, 0.01), NVME);
        assertFalse(v.driverLimited(), v.toString());
    }

    @Test
    void nothingIssuedInTheWindowIsNoVerdict() {
        DriverLimit.Verdict v = DriverLimit.judge(8, Measurement.Pacing.NONE, NVME);
        assertFalse(v.driverLimited());
        assertTrue(Double.isNaN(v.lateShare()));
    }

    @Test
    void theVerdictIsReportedUnderNamedFields() {
        Map<String, Object> fields = new LinkedHashMap<>();
        DriverLimit.judge(27, allBusy(27, 25_635, 1.0), NVME).report(fields);
        assertEquals(true, fields.get("driver_limited"));
        assertEquals(1.0, fields.get("late_issue_share"));
        assertEquals(1.0, fields.get("driver_pool_busy"));
        assertEquals(1053.2, (double) fields.get("in_service_us"), 0.1);
    }

    @Test
    void badArgumentsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> DriverLimit.judge(0, Measurement.Pacing.NONE, NVME));
        assertThrows(IllegalArgumentException.class, () -> DriverLimit.judge(1, Measurement.Pacing.NONE, 0));
    }
}
