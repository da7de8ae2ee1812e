package io.most.bench.hitratio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.EvictionPolicy;
import io.most.bench.report.Charts;
import io.most.bench.report.Panel;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    /**
     * The PM pool's default policy: S3-FIFO must hit more often than CLOCK, Spitfire's choice, on the
     * zipfian stream and not less with scans (smaller than the DRAM comparison: every PM eviction
     * persists a header, which makes a PM replay slower).
     */
    @Test
    void s3FifoKeepsABetterHotSetInThePmPoolToo(@TempDir Path tmp) throws java.io.IOException {
        // on tmpfs when there is one: each PM eviction persists (msyncs) a header, which a disk makes slow
        Path shm = Path.of("/dev/shm");
        Path dir = java.nio.file.Files.isWritable(shm) ? java.nio.file.Files.createTempDirectory(shm, "most-replay-") : tmp;
        try {
            comparePmPolicies(dir);
        } finally {
            if (!dir.equals(tmp)) {
                try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(dir)) {
                    for (Path file : files.toList()) {
                        java.nio.file.Files.delete(file);
                    }
                }
                java.nio.file.Files.delete(dir);
            }
        }
    }

    private static void comparePmPolicies(Path dir) {
        long pages = 1024;
        int pmFrames = 256; // data 4x the PM pool
        long requests = 60_000;
        double[] clock = new double[2];
        double[] s3Fifo = new double[2];
        for (RequestStream.Mix mix : RequestStream.Mix.values()) {
            clock[mix.ordinal()] = HitRatioReplay.pmHitRatio(EvictionPolicy.CLOCK, mix, 0.99, pages, pmFrames,
                    requests, requests / 4, dir);
            s3Fifo[mix.ordinal()] = HitRatioReplay.pmHitRatio(EvictionPolicy.S3_FIFO, mix, 0.99, pages, pmFrames,
                    requests, requests / 4, dir);
            System.out.printf("PM pool, %s, %d pages, %d PM frames: clock %.2f%%, s3-fifo %.2f%%%n", mix.label(0.99),
                    pages, pmFrames, 100 * clock[mix.ordinal()], 100 * s3Fifo[mix.ordinal()]);
        }
        int zipf = RequestStream.Mix.ZIPF.ordinal();
        int scans = RequestStream.Mix.ZIPF_WITH_SCANS.ordinal();
        assertTrue(s3Fifo[zipf] > clock[zipf], "zipf: s3-fifo " + s3Fifo[zipf] + ", clock " + clock[zipf]);
        assertTrue(s3Fifo[scans] >= clock[scans], "scans: s3-fifo " + s3Fifo[scans] + ", clock " + clock[scans]);
    }

    @Test
    void aReplayIsDeterministic() {
        double first = HitRatioReplay.storeHitRatio(io.most.EvictionPolicy.S3_FIFO, RequestStream.Mix.ZIPF_WITH_SCANS,
                0.99, 512, 64, 20_000, 5_000);
        double second = HitRatioReplay.storeHitRatio(io.most.EvictionPolicy.S3_FIFO, RequestStream.Mix.ZIPF_WITH_SCANS,
                0.99, 512, 64, 20_000, 5_000);
        assertEquals(first, second);
    }

    /** The chart has a panel per mix, each with the three policies over the five DRAM sizes, as a PNG. */
    @Test
    void chartDrawsEveryPolicyAtEveryDramSize(@TempDir Path dir) throws Exception {
        List<HitRatioReplay.Row> rows = HitRatioReplay.curves(256, 4_000, new PrintStream(new ByteArrayOutputStream()));
        List<Panel> panels = HitRatioReplay.panels(rows);
        assertEquals(RequestStream.Mix.values().length, panels.size());
        Panel.Category zipf = (Panel.Category) panels.getFirst();
        assertEquals(List.of("1/16", "1/8", "1/4", "1/2", "1x"), zipf.categories());
        assertEquals(3, zipf.series().size());
        Path png = dir.resolve("curves.png");
        Charts.write(png, panels);
        byte[] head = Arrays.copyOf(Files.readAllBytes(png), 4);
        assertEquals("\u0089PNG", new String(head, StandardCharsets.ISO_8859_1));
    }
}
