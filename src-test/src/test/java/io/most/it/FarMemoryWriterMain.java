package io.most.it;

import io.most.MigrationPolicy;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.device.DirectFileDevice;
import java.nio.file.Path;

/**
 * The child of {@link FarMemoryCrashTest}: a page store whose PM tier is volatile far memory on NUMA
 * node 0, with the policy {@code <Dr, Dw, Nr, Nw> = <0, 0, 1, 1>} (writes stay in far memory, dirty DRAM
 * pages go there) and no background cleaner, so that between checkpoints the newest versions live
 * only in far memory. Its {@value #PAGES} pages fit far memory: nothing is evicted from it.
 *
 * <p>Arguments: the directory, and {@code park} or {@code loop}. Writes round {@code r} = 1, 2, ...:
 * version {@code r} of every page, then {@code checkpoint()}, then prints {@code CHECKPOINT <r>}. With
 * {@code park}, after {@value #PARK_AFTER} checkpointed rounds it writes version
 * {@value #PARK_AFTER}{@code + 1} of every page without a checkpoint, prints {@code DIRTY <r>} and waits
 * to be killed; with {@code loop} it goes on until killed (for at most a minute).
 */
public final class FarMemoryWriterMain {
    static final int PAGE = 4096;
    static final int PAGES = 48;
    static final int DRAM_FRAMES = 16;
    static final int FAR_FRAMES = 64;
    static final int PARK_AFTER = 3;
    private static final long MAX_RUN_NANOS = 60_000_000_000L;

    private FarMemoryWriterMain() {
    }

    /** The store of the child and of the test's reopen: the same files, far memory on node 0. */
    static PageStoreConfig config(Path dir) {
        return PageStoreConfig.builder()
                .pageSize(PAGE)
                .blockDevice(DirectFileDevice.open(dir.resolve("ssd.dat"), PageStore.blockDeviceBytesFor(PAGES, PAGE)))
                .dramBytes((long) DRAM_FRAMES * PAGE)
                .farMemory(0, (long) (FAR_FRAMES + 1) * PAGE)
                .policy(MigrationPolicy.of(0, 0, 1, 1))
                .dirtyRatio(1)
                .build();
    }

    public static void main(String[] args) throws InterruptedException {
        ForkedJvm.exitWhenParentDies();
        Path dir = Path.of(args[0]);
        boolean park = args[1].equals("park");
        ForkedJvm.LineWriter out = ForkedJvm.lineWriter();
        long start = System.nanoTime();
        try (PageStore store = PageStore.open(config(dir))) {
            for (int i = 0; i < PAGES; i++) {
                store.allocate(i);
            }
            store.checkpoint();
            out.println("READY");
            for (int round = 1; System.nanoTime() - start < MAX_RUN_NANOS; round++) {
                for (int i = 0; i < PAGES; i++) {
                    SmallStore.write(store, i, round);
                }
                if (park && round > PARK_AFTER) {
                    out.println("DIRTY " + round + " far " + store.stats().pmFramesUsed());
                    Thread.sleep(MAX_RUN_NANOS / 1_000_000);
                    break;
                }
                store.checkpoint();
                out.println("CHECKPOINT " + round);
            }
        }
        out.println("TIMEOUT");
    }
}
