package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.DeviceStats;
import io.most.device.EmulatedPm;
import io.most.device.IoOp;
import io.most.device.PmProfiles;
import org.junit.jupiter.api.Test;

/** What non-hierarchical caching measures per interval: the block tier's read latency and the buffer's hit rate. */
class NhcProbeTest {
    private final DeviceStats block = new DeviceStats();
    private final BufferCounters counters = new BufferCounters();
    private final NhcProbe probe = new NhcProbe(new EmulatedPm(PmProfiles.get("none")), 16384, block, counters);

    @Test
    void blockLatencyIsTheIntervalsMeanAndTheLastOneWhenNothingWasRead() {
        assertTrue(Double.isNaN(probe.blockLatencyNanos()), "nothing measured yet");
        block.latency(IoOp.READ).record(1_000);
        block.latency(IoOp.READ).record(3_000);
        assertEquals(2_000, probe.blockLatencyNanos());
        assertEquals(2_000, probe.blockLatencyNanos(), "an idle interval keeps the last mean");
        block.latency(IoOp.READ).record(10_000);
        block.latency(IoOp.WRITE).record(99_000);
        assertEquals(10_000, probe.blockLatencyNanos(), "this interval's reads only");
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
        probe.samplePm();
        probe.samplePm();
        assertEquals(0, probe.pmLatencyNanos(), "a free PM model answers 0");
        assertTrue(Double.isNaN(probe.pmLatencyNanos()), "each interval starts over");
    }
}
