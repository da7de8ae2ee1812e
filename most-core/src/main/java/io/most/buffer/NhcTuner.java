package io.most.buffer;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs non-hierarchical caching online: samples the tiers' latencies every {@link #SAMPLE_NANOS}, and at the
 * end of each interval hands the interval's measurements ({@link NhcProbe}) to the scheduler
 * ({@link NhcController}) and its decision to the paths that read it ({@link LoadAdmission}).
 *
 * <p>The paper measures every 5 ms; this defaults to 50 ms (PageStoreConfig), because a thread's sleep
 * here is only accurate to a few percent at a millisecond (DESIGN.md) and an interval must hold enough
 * block-tier reads, at the emulation's tenfold latencies, for its mean to say something. One sample a
 * millisecond is one short lock of each model: nothing next to the accesses it measures.
 */
final class NhcTuner extends BackgroundTask {
    /** How often PM's latency is sampled within an interval. */
    static final long SAMPLE_NANOS = 1_000_000;

    private final NhcProbe probe;
    private final NhcController controller = new NhcController();
    private final LoadAdmission admission;
    private final long intervalNanos;

    NhcTuner(NhcProbe probe, LoadAdmission admission, Duration interval) {
        super("most-nhc-tuner");
        this.probe = probe;
        this.admission = admission;
        this.intervalNanos = interval.toNanos();
    }

    @Override
    void runLoop() {
        long next = System.nanoTime() + intervalNanos;
        while (running()) {
            probe.sample();
            long now = System.nanoTime();
            if (now - next >= 0) {
                controller.observe(probe.pmLatencyNanos(), probe.blockLatencyNanos(), probe.hitRate());
                probe.nextInterval();
                admission.set(controller.offloadRatio(), controller.admitsData());
                next = now + intervalNanos;
            }
            LockSupport.parkNanos(Math.min(SAMPLE_NANOS, Math.max(1, next - now)));
        }
        admission.set(0, true); // a store closing caches classically while its last reads drain
    }
}
