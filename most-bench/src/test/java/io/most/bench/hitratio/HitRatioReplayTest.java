package io.most.bench.hitratio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The default eviction policy must keep a better hot set than CLOCK: on a zipfian 0.99 stream with the
 * data 4x DRAM it must hit more often, and with scans mixed in it must not hit less. Hit ratios of a
 * deterministic replay, not times, so the check holds on a loaded machine.
 */
class HitRatioReplayTest {
    private static final long PAGES = 2048;
    private static final int FRAMES = 512; // data 4x DRAM
    private static final long REQUESTS = 200_000;

    @Test
    void s3FifoBeatsClockOnZipfianAndDoesNotLoseOnScans() {
        HitRatioReplay.Row zipf = HitRatioReplay.compare(RequestStream.Mix.ZIPF, 0.99, PAGES, FRAMES, REQUESTS,
                REQUESTS / 4);
        HitRatioReplay.Row scans = HitRatioReplay.compare(RequestStream.Mix.ZIPF_WITH_SCANS, 0.99, PAGES, FRAMES,
                REQUESTS, REQUESTS / 4);
        System.out.println(HitRatioReplay.header());
        System.out.println(zipf.format());
        System.out.println(scans.format());
        assertTrue(zipf.s3Fifo() > zipf.clock(), zipf.format());
        assertTrue(scans.s3Fifo() >= scans.clock(), scans.format());
        assertTrue(zipf.caffeine() > 0.5 && zipf.caffeine() < 1, "the reference ran: " + zipf.format());
    }

    @Test
    void aReplayIsDeterministic() {
        double first = HitRatioReplay.storeHitRatio(io.most.EvictionPolicy.S3_FIFO, RequestStream.Mix.ZIPF_WITH_SCANS,
                0.99, 512, 64, 20_000, 5_000);
        double second = HitRatioReplay.storeHitRatio(io.most.EvictionPolicy.S3_FIFO, RequestStream.Mix.ZIPF_WITH_SCANS,
                0.99, 512, 64, 20_000, 5_000);
        assertEquals(first, second);
    }
}
