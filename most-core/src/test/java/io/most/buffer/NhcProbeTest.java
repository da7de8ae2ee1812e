package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.DeviceProfile;
import io.most.device.DeviceProfiles;
import io.most.device.DeviceStats;
import io.most.device.EmulatedDevice;
import io.most.device.EmulatedPm;
import io.most.device.IoOp;
import io.most.device.MemoryDevice;
import io.most.device.PmProfiles;
import org.junit.jupiter.api.Test;

/** What non-hierarchical caching measures per interval: the tiers' read latencies and the buffer's hit rate. */
class NhcProbeTest {
    private static final int PAGE = 16384;
    private final MemoryDevice real = new MemoryDevice(1 << 20);
    private final BufferCounters counters = new BufferCounters();
    private final NhcProbe probe = new NhcProbe(new EmulatedPm(PmProfiles.get("none")), PAGE, real, counters);

    @Test
    void aBlockDeviceWithoutAModelIsMeasuredAsObservedUntilItsMeanIsStale() {
        DeviceStats block = real.stats();
        assertTrue(Double.isNaN(probe.blockLatencyNanos()), "nothing measured yet");
        block.latency(IoOp.READ).record(1_000);
        block.latency(IoOp.READ).record(3_000);
        assertEquals(2_000, probe.blockLatencyNanos());
        for (int idle = 0; idle < NhcProbe.STALE_INTERVALS; idle++) {
            assertEquals(2_000, probe.blockLatencyNanos(), "an idle interval keeps the last mean");
        }
        assertTrue(Double.isNaN(probe.blockLatencyNanos()), "too old to decide on");
        block.latency(IoOp.READ).record(10_000);
        block.latency(IoOp.WRITE).record(99_000);
        assertEquals(10_000, probe.blockLatencyNanos(), "this interval's reads only");
    }

    @Test
    void anEmulatedBlockDeviceIsMeasuredByItsModelLikePm() {
        DeviceProfile nvme = DeviceProfiles.get("nvme-pcie3");
        NhcProbe modelled = new NhcProbe(new EmulatedPm(PmProfiles.get("none")), PAGE,
                new EmulatedDevice(new MemoryDevice(1 << 20), nvme), counters);
        assertTrue(Double.isNaN(modelled.blockLatencyNanos()), "no sample yet");
        modelled.sample();
        modelled.sample();
        double idle = nvme.serviceNanos(IoOp.READ, PAGE);
        assertTrue(modelled.blockLatencyNanos() >= idle && modelled.blockLatencyNanos() < 1.1 * idle,
                "an idle device answers its service time: " + modelled.blockLatencyNanos() + " vs " + idle);
        modelled.nextInterval();
        assertTrue(Double.isNaN(modelled.blockLatencyNanos()), "each interval starts over");
    }

    @Test
    void anOffloadedReadCountsAsAHitAndTooFewAccessesGiveNoRate() {
        for (int i = 0; i < 100; i++) {
            counters.dramHits.increment();
        }
        counters.misses.add(20);
        counters.readsOffloaded.add(10); // found in PM, served by the block device
        assertEquals(1 - 10.0 / 120, probe.hitRate(), 1e-12);
        counters.misses.add(NhcProbe.MIN_ACCESSES - 1);
        assertTrue(Double.isNaN(probe.hitRate()), "too few accesses in the interval");
        counters.misses.add(NhcProbe.MIN_ACCESSES);
        assertEquals(0, probe.hitRate());
    }

    @Test
    void pmLatencyIsTheMeanOfTheIntervalsSamples() {
        assertTrue(Double.isNaN(probe.pmLatencyNanos()));
        probe.sample();
        probe.sample();
        assertEquals(0, probe.pmLatencyNanos(), "a free PM model answers 0");
        probe.nextInterval();
        assertTrue(Double.isNaN(probe.pmLatencyNanos()), "each interval starts over");
    }
}
