package io.most.bench.hitratio;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.most.EvictionPolicy;
import io.most.MigrationPolicy;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.PageStoreStats;
import io.most.device.MemoryDevice;
import io.most.bench.report.Charts;
import io.most.bench.report.Panel;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Replays one deterministic page-request stream through MOST's page store under each DRAM eviction
 * policy ({@link EvictionPolicy}) and through a Caffeine cache (W-TinyLFU) holding as many pages, and
 * reports the DRAM hit ratios: the comparison a {@code caffeine-pagecache} run makes, without time.
 *
 * <p>The store is the real one (its {@link PageStore#read} path, replacement policy and eviction), on
 * a block device in memory, one thread, no PM, the background cleaner off: so a run is deterministic
 * and its hit ratio independent of the machine's load. The first {@code warmup} requests fill the
 * pool and are not counted.
 *
 * <pre>
 * java -cp most-bench/target/most-bench.jar io.most.bench.hitratio.HitRatioReplay [pages] [requests] [--chart FILE.png] [--pm-dir DIR]
 * </pre>
 * prints one row per mix and DRAM size (1/16 .. 1x of the data) with the three hit ratios, and with
 * {@code --chart} draws them as curves, one panel per mix.
 */
public final class HitRatioReplay {
    static final int PAGE_SIZE = 4096;
    static final long SEED = 42;

    private HitRatioReplay() {
    }

    /** One row of the comparison: DRAM hit ratios of a stream through each policy. */
    record Row(String mix, long pages, int frames, double clock, double s3Fifo, double caffeine) {
        String format() {
            return String.format(Locale.ROOT, "%-16s %8d %8d  1/%-5s %8.2f%% %8.2f%% %8.2f%%", mix, pages, frames,
                    pages % frames == 0 ? Long.toString(pages / frames) : String.format(Locale.ROOT, "%.2f",
                            (double) pages / frames), 100 * clock, 100 * s3Fifo, 100 * caffeine);
        }
    }

    /** Runs one mix at one DRAM size through CLOCK, S3-FIFO and Caffeine. */
    static Row compare(RequestStream.Mix mix, double theta, long pages, int frames, long requests, long warmup) {
        return new Row(mix.label(theta), pages, frames,
                storeHitRatio(EvictionPolicy.CLOCK, mix, theta, pages, frames, requests, warmup),
                storeHitRatio(EvictionPolicy.S3_FIFO, mix, theta, pages, frames, requests, warmup),
                caffeineHitRatio(mix, theta, pages, frames, requests, warmup));
    }

    /** The DRAM hit ratio of the stream through a page store of {@code frames} DRAM frames. */
    static double storeHitRatio(EvictionPolicy eviction, RequestStream.Mix mix, double theta, long pages, int frames,
                                long requests, long warmup) {
        PageStoreConfig config = PageStoreConfig.builder()
                .pageSize(PAGE_SIZE)
                .dramBytes((long) frames * PAGE_SIZE)
                .blockDevice(new MemoryDevice("hit-ratio", PAGE_SIZE,
                        PageStore.blockDeviceBytesFor(pages, PAGE_SIZE)))
                .policy(MigrationPolicy.eager())
                .dirtyRatio(1) // no cleaner thread: one thread, one outcome
                .evictionPolicy(eviction)
                .build();
        return replay(config, mix, theta, pages, requests, warmup, PageStoreStats::dramHits);
    }

    /**
     * The PM hit ratio of the stream through a page store whose PM pool of {@code pmFrames} frames,
     * under {@code pmEviction}, caches the pages: DRAM at its minimum, Spitfire's policy
     * {@code <Dr, Dw, Nr, Nw> = <0, 0, 1, 0>} (a miss loads the page into PM, a hit is served there, so
     * DRAM never caches data and the PM pool's policy alone decides). The PM file is created in
     * {@code dir} and deleted afterwards; one thread, no cleaner: deterministic.
     */
    static double pmHitRatio(EvictionPolicy pmEviction, RequestStream.Mix mix, double theta, long pages, int pmFrames,
                             long requests, long warmup, Path dir) {
        Path pmFile = dir.resolve("pm-" + pmEviction + "-" + mix + "-" + pages + "-" + pmFrames + ".dat");
        PageStoreConfig config = PageStoreConfig.builder()
                .pageSize(PAGE_SIZE)
                .dramBytes((long) PageStoreConfig.MIN_DRAM_FRAMES * PAGE_SIZE)
                .pm(pmFile, (long) (pmFrames + 1) * PAGE_SIZE)
                .blockDevice(new MemoryDevice("hit-ratio", PAGE_SIZE, PageStore.blockDeviceBytesFor(pages, PAGE_SIZE)))
                .policy(MigrationPolicy.of(0, 0, 1, 0))
                .dirtyRatio(1)
                .pmEvictionPolicy(pmEviction)
                .build();
        try {
            return replay(config, mix, theta, pages, requests, warmup, PageStoreStats::pmHits);
        } finally {
            try {
                Files.deleteIfExists(pmFile); // scratch: the next replay starts afresh
            } catch (IOException e) {
                System.err.println("could not delete " + pmFile + ": " + e.getMessage());
            }
        }
    }

    /**
     * Allocates {@code pages} pages in a store opened with {@code config}, checkpoints, replays
     * {@code warmup} requests uncounted, then {@code requests} counted ones; returns the share of the
     * counted ones that were {@code hits} (of the tier measured) among hits and misses.
     */
    private static double replay(PageStoreConfig config, RequestStream.Mix mix, double theta, long pages,
                                 long requests, long warmup, java.util.function.ToLongFunction<PageStoreStats> hits) {
        try (PageStore store = PageStore.open(config)) {
            for (long p = 0; p < pages; p++) {
                store.allocate();
            }
            store.checkpoint();
            RequestStream stream = new RequestStream(pages, theta, mix, SEED);
            for (long r = 0; r < warmup; r++) {
                store.read(stream.next()).close();
            }
            PageStoreStats before = store.stats();
            for (long r = 0; r < requests; r++) {
                store.read(stream.next()).close();
            }
            PageStoreStats after = store.stats();
            long hit = hits.applyAsLong(after) - hits.applyAsLong(before);
            long misses = after.misses() - before.misses();
            return (double) hit / (hit + misses);
        }
    }

    /**
     * The hit ratio of the same stream through Caffeine bounded to {@code frames} entries, maintenance
     * run on the caller's thread (so that eviction happens in request order).
     */
    static double caffeineHitRatio(RequestStream.Mix mix, double theta, long pages, int frames, long requests,
                                   long warmup) {
        Cache<Long, Boolean> cache = Caffeine.newBuilder().maximumSize(frames).executor(Runnable::run).build();
        RequestStream stream = new RequestStream(pages, theta, mix, SEED);
        long hits = 0;
        for (long r = 0; r < warmup + requests; r++) {
            Long page = stream.next();
            boolean hit = cache.getIfPresent(page) != null;
            if (!hit) {
                cache.put(page, Boolean.TRUE);
            }
            if (hit && r >= warmup) {
                hits++;
            }
        }
        return (double) hits / requests;
    }

    /** Every mix at DRAM sizes 1/16, 1/8, 1/4, 1/2 and 1x of the data. */
    static List<Row> curves(long pages, long requests, PrintStream progress) {
        List<Row> rows = new ArrayList<>();
        for (RequestStream.Mix mix : RequestStream.Mix.values()) {
            for (int divisor : new int[] {16, 8, 4, 2, 1}) {
                Row row = compare(mix, 0.99, pages, (int) (pages / divisor), requests, requests / 4);
                progress.println(row.format());
                rows.add(row);
            }
        }
        return rows;
    }

    static String header() {
        return String.format(Locale.ROOT, "%-16s %8s %8s  %-7s %9s %9s %9s", "mix", "pages", "frames", "dram",
                "clock", "s3-fifo", "caffeine");
    }

    /** One chart panel per mix: the three policies' DRAM hit ratios over the DRAM sizes of {@code rows}. */
    static List<Panel> panels(List<Row> rows) {
        List<Panel> panels = new ArrayList<>();
        for (RequestStream.Mix mix : RequestStream.Mix.values()) {
            List<Row> of = rows.stream().filter(r -> r.mix().equals(mix.label(0.99))).toList();
            Map<String, List<Double>> series = new LinkedHashMap<>();
            series.put("CLOCK", of.stream().map(r -> 100 * r.clock()).toList());
            series.put("S3-FIFO (default)", of.stream().map(r -> 100 * r.s3Fifo()).toList());
            series.put("Caffeine (W-TinyLFU)", of.stream().map(r -> 100 * r.caffeine()).toList());
            List<String> sizes = of.stream().map(r -> r.pages() == r.frames() ? "1x" : "1/" + r.pages() / r.frames())
                    .toList();
            panels.add(new Panel.Category("DRAM hit ratio, " + mix.label(0.99) + ", " + of.getFirst().pages()
                    + " pages", "DRAM / data", "DRAM hits %", true, sizes, series));
        }
        return panels;
    }

    /** The command line: {@code [pages] [requests] [--pm-dir DIR] [--chart FILE.png]}. */
    @Command(name = "HitRatioReplay", mixinStandardHelpOptions = true, description = {
        "DRAM hit ratios of one deterministic page-request stream under CLOCK, S3-FIFO and Caffeine,",
        "at DRAM sizes 1/16 .. 1x of the data (one thread, no timing: any machine gives the same numbers)."})
    static final class Cli implements Callable<Integer> {
        @Parameters(index = "0", defaultValue = "8192", description = "pages of data (default ${DEFAULT-VALUE})")
        long pages;
        @Parameters(index = "1", defaultValue = "2000000", description = "counted requests per run, after a quarter"
                + " as many of warm-up (default ${DEFAULT-VALUE})")
        long requests;
        @Option(names = "--pm-dir", description = "also the PM pool's hit ratios under CLOCK and S3-FIFO at PM"
                + " sizes 1/16 .. 1/2, PM files under this directory (tmpfs, e.g. /dev/shm: every PM eviction"
                + " persists a header)")
        Path pmDir;
        @Option(names = "--chart", description = "also draw the DRAM curves, one panel per mix, to this PNG")
        Path chart;

        @Override
        public Integer call() throws IOException {
            System.out.println("DRAM hit ratios, one thread, page store on a memory device, " + requests
                    + " requests after " + requests / 4 + " of warm-up, seed " + SEED);
            System.out.println(header());
            List<Row> rows = curves(pages, requests, System.out);
            if (chart != null) {
                Charts.write(chart, panels(rows));
                System.out.println("chart: " + chart);
            }
            if (pmDir != null) {
                printPmCurves();
            }
            return 0;
        }

        private void printPmCurves() throws IOException {
            Path dir = Files.createTempDirectory(pmDir, "most-replay-");
            System.out.println("PM pool hit ratios (Dr=0, Dw=0, Nr=1, Nw=0), PM file under " + dir);
            for (RequestStream.Mix mix : RequestStream.Mix.values()) {
                for (int divisor : new int[] {16, 8, 4, 2}) {
                    int frames = (int) (pages / divisor);
                    System.out.printf(Locale.ROOT, "%-16s %8d %8d  1/%-5d %8.2f%% %8.2f%%%n", mix.label(0.99), pages,
                            frames, divisor,
                            100 * pmHitRatio(EvictionPolicy.CLOCK, mix, 0.99, pages, frames, requests, requests / 4, dir),
                            100 * pmHitRatio(EvictionPolicy.S3_FIFO, mix, 0.99, pages, frames, requests, requests / 4, dir));
                }
            }
            Files.delete(dir);
        }
    }

    /** Runs {@link Cli}; exit code 0, or 2 for a bad command line. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new Cli()).execute(args));
    }
}
