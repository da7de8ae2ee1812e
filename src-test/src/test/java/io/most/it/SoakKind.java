package io.most.it;

import io.most.MigrationPolicy;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.device.BlockDevice;
import io.most.device.DirectFileDevice;
import io.most.tier.TierConfig;
import io.most.tier.TieredVolume;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The store kinds the randomized crash soak ({@link RandomCrashSoakTest}) and the byte-flip trials
 * ({@link ByteFlipTrialsTest}) run, each built only through the public API on real files in one
 * directory, with the same configuration in the writer child and in the test that reopens.
 *
 * <p>Sizes are small on purpose (4 KiB pages, 16 DRAM frames, 24 PM frames, {@link #UNITS} pages in
 * use), so that every few operations evict, migrate between DRAM and PM, and write back.
 */
enum SoakKind {
    /** DRAM over an O_DIRECT file. */
    DRAM_SSD(false, null, false),
    /** DRAM + PM with the lazy policy over an O_DIRECT file. */
    PM_LAZY(true, MigrationPolicy.lazy(), false),
    /** DRAM + PM with the eager policy over an O_DIRECT file. */
    PM_EAGER(true, MigrationPolicy.eager(), false),
    /** DRAM + PM (lazy) over a tiered volume of two O_DIRECT files. */
    PM_OVER_VOLUME(true, MigrationPolicy.lazy(), true),
    /** The tiered volume of two O_DIRECT files used directly as a block device (no page store). */
    VOLUME(false, null, true);

    static final int PAGE = 4096;
    /** Pages (or volume blocks) the writer keeps in use. */
    static final int UNITS = 96;
    static final int DRAM_FRAMES = 16;
    static final int PM_FRAMES = 24;
    /** Volume blocks the {@link #VOLUME} writer uses: spread over many 64 KiB segments, so MOST migrates them. */
    static final int VOLUME_BLOCKS = 512;
    static final long PERF_BYTES = 2L << 20;
    static final long CAP_BYTES = 4L << 20;

    static final String SSD_FILE = "ssd.dat";
    static final String PM_FILE = "pm.dat";
    static final String PERF_FILE = "perf.dat";
    static final String CAP_FILE = "cap.dat";

    private final boolean pm;
    private final MigrationPolicy policy;
    private final boolean volume;

    SoakKind(boolean pm, MigrationPolicy policy, boolean volume) {
        this.pm = pm;
        this.policy = policy;
        this.volume = volume;
    }

    /** Whether this kind is a page store (else a bare tiered volume). */
    boolean isPageStore() {
        return this != VOLUME;
    }

    boolean hasPm() {
        return pm;
    }

    /** Page ids (or blocks) the writer uses. */
    int units() {
        return isPageStore() ? UNITS : VOLUME_BLOCKS;
    }

    /** Every file of the store in {@code dir}. */
    List<Path> files(Path dir) {
        if (volume) {
            return pm ? List.of(dir.resolve(PERF_FILE), dir.resolve(CAP_FILE), dir.resolve(PM_FILE))
                    : List.of(dir.resolve(PERF_FILE), dir.resolve(CAP_FILE));
        }
        return pm ? List.of(dir.resolve(SSD_FILE), dir.resolve(PM_FILE)) : List.of(dir.resolve(SSD_FILE));
    }

    /** Opens (creating or recovering) the tiered volume of {@code dir}. */
    static TieredVolume openVolume(Path dir) {
        BlockDevice perf = DirectFileDevice.open(dir.resolve(PERF_FILE), PERF_BYTES);
        BlockDevice cap;
        try {
            cap = DirectFileDevice.open(dir.resolve(CAP_FILE), CAP_BYTES);
        } catch (RuntimeException e) {
            perf.close();
            throw e;
        }
        try {
            return TieredVolume.open(perf, cap, TierConfig.builder()
                    .segmentSize(64 * 1024)
                    .optimizerInterval(Duration.ofMillis(5))
                    .hotness(2, 6)
                    .journalBytes(128 * 1024)
                    .build());
        } catch (RuntimeException e) {
            perf.close();
            cap.close();
            throw e;
        }
    }

    /** The page store's configuration over {@code dir}; not for {@link #VOLUME}. */
    PageStoreConfig config(Path dir) {
        BlockDevice device = volume ? openVolume(dir)
                : DirectFileDevice.open(dir.resolve(SSD_FILE), PageStore.blockDeviceBytesFor(UNITS + 8, PAGE));
        try {
            PageStoreConfig.Builder b = PageStoreConfig.builder()
                    .pageSize(PAGE)
                    .blockDevice(device)
                    .dramBytes((long) DRAM_FRAMES * PAGE)
                    .policy(policy != null ? policy : MigrationPolicy.lazy());
            if (pm) {
                b.pm(dir.resolve(PM_FILE), (long) (PM_FRAMES + 1) * PAGE);
            }
            return b.build();
        } catch (RuntimeException e) {
            device.close();
            throw e;
        }
    }

    /** Opens the page store of {@code dir}; not for {@link #VOLUME}. */
    PageStore openStore(Path dir) {
        return PageStore.open(config(dir));
    }
}
