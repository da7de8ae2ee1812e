import io.most.Page;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.device.DirectFileDevice;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Time of PageStore.checkpoint() with N dirty 16 KiB pages in DRAM over an O_DIRECT file (no PM):
 * the pages are allocated and checkpointed once, then each round writes every page and times the
 * checkpoint that makes them durable. Prints one line: median and min-max ms over the rounds.
 * Usage: java --enable-native-access=ALL-UNNAMED -cp most-bench.jar most-bench/scripts/CheckpointTime.java DIR PAGES ROUNDS
 * It uses only page store API that builds before and after the batched write-back share, so the same source
 * times an older build (its bench jar) beside a newer one; DIR must allow O_DIRECT (not tmpfs).
 */
public class CheckpointTime {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int pages = Integer.parseInt(args[1]);
        int rounds = Integer.parseInt(args[2]);
        int pageSize = 16 * 1024;
        Path file = dir.resolve("ckpt.most");
        Files.deleteIfExists(file);
        long deviceBytes = PageStore.blockDeviceBytesFor(pages + 1024, pageSize);
        PageStoreConfig config = PageStoreConfig.builder()
                .blockDevice(DirectFileDevice.open(file, deviceBytes))
                .pageSize(pageSize)
                .dramBytes((long) (pages + 2048) * pageSize)
                .build();
        double[] ms = new double[rounds];
        try (PageStore store = PageStore.open(config)) {
            long[] ids = new long[pages];
            for (int i = 0; i < pages; i++) {
                ids[i] = store.allocate();
            }
            store.checkpoint();
            long lsn = 1;
            for (int r = -1; r < rounds; r++) { // round -1 warms up
                for (long id : ids) {
                    try (Page page = store.write(id)) {
                        page.payload().set(ValueLayout.JAVA_LONG, 0, lsn);
                        page.markDirty(lsn++);
                    }
                }
                long t0 = System.nanoTime();
                store.checkpoint();
                long t1 = System.nanoTime();
                if (r >= 0) {
                    ms[r] = (t1 - t0) / 1e6;
                }
            }
        }
        Files.deleteIfExists(file);
        double[] sorted = ms.clone();
        Arrays.sort(sorted);
        System.out.printf("pages %d rounds %d checkpoint ms median %.1f min %.1f max %.1f all %s%n", pages, rounds,
                sorted[rounds / 2], sorted[0], sorted[rounds - 1], Arrays.toString(ms));
    }
}
