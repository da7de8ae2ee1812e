package io.most.bench.hierarchy;

import io.most.MigrationPolicy;
import io.most.Page;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.bench.ScratchFiles;
import io.most.bench.Units;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What a page-layer workload drives: a page store over fresh devices of a {@link PageTiers}, opened in
 * two phases so the load is neither timed nor emulated.
 *
 * <ol>
 *   <li>{@link #load}: a store over the block tier at full speed (no emulated latency), DRAM only,
 *       allocates and fills every page, then checkpoints and closes: the data set is on the block
 *       tier, PM is empty.</li>
 *   <li>Then the measured store opens on the same data with the emulated block tier (one SSD, or a
 *       MOST tiered volume, see {@link PageBlockTier}), the PM pool and the policy (and the annealing
 *       tuner, which starts measuring right away, as in the paper).</li>
 * </ol>
 */
public final class PageTarget implements AutoCloseable {
    /** Load-phase policy: everything through DRAM, dirty pages straight to the SSD. */
    private static final MigrationPolicy LOAD_POLICY = MigrationPolicy.of(1, 1, 0, 0);

    private final PageTiers tiers;
    private final String policyName;
    private final MigrationPolicy initialPolicy;
    private final Optional<Duration> tuningEpoch;
    private final boolean nonHierarchical;
    private final PageBlockTier blockTier;
    private final Path pmFile;
    private final List<Runnable> closeHooks = new ArrayList<>();
    private PageStore store;
    private boolean configured;
    private long openedAtNanos;
    private double loadSeconds;
    private boolean closed;
    private PmUsage pmUsage;

    PageTarget(PageTiers tiers, String policyName, MigrationPolicy initialPolicy, Optional<Duration> tuningEpoch,
               boolean nonHierarchical, PageBlockTier blockTier, Path pmFile) {
        this.tiers = tiers;
        this.policyName = policyName;
        this.initialPolicy = initialPolicy;
        this.tuningEpoch = tuningEpoch;
        this.nonHierarchical = nonHierarchical;
        this.blockTier = blockTier;
        this.pmFile = pmFile;
    }

    /** Fills one freshly allocated page's payload during the load. */
    @FunctionalInterface
    public interface PageFiller {
        void fill(long pageId, MemorySegment payload);
    }

    /**
     * Loads {@code pages} pages (ids 0 .. pages-1, filled by {@code filler}), then opens the measured
     * store and returns it. Callable once.
     */
    public PageStore load(long pages, PageFiller filler) {
        if (configured || closed) {
            throw new IllegalStateException("page target for " + policyName + " is already loaded or closed");
        }
        long start = System.nanoTime();
        tiers.log().printf(Locale.ROOT, "%s: loading %,d pages (%s) ... ", policyName, pages,
                Units.formatBytes(pages * tiers.pageSize()));
        tiers.log().flush();
        PageStoreConfig loadConfig = PageStoreConfig.builder()
                .pageSize(tiers.pageSize())
                .dramBytes(tiers.dramBytes())
                .blockDevice(blockTier.loadDevice())
                .policy(LOAD_POLICY)
                .build();
        try (PageStore loader = PageStore.open(loadConfig)) {
            if (loader.pageCapacity() < pages) {
                throw new IllegalStateException("the block tier holds " + loader.pageCapacity() + " pages, not " + pages);
            }
            for (long p = 0; p < pages; p++) {
                long id = loader.allocate();
                if (id != p) {
                    throw new IllegalStateException("a fresh page store allocated page " + id + " as its page " + p
                            + "; the workload needs dense ids from 0");
                }
                try (Page page = loader.write(id)) {
                    filler.fill(id, page.payload());
                    page.markDirty(0);
                }
            }
        }
        loadSeconds = (System.nanoTime() - start) / 1e9;
        tiers.log().printf(Locale.ROOT, "%.2f s%n", loadSeconds);
        store = PageStore.open(storeConfig().build());
        openedAtNanos = System.nanoTime();
        return store;
    }

    /**
     * The measured store's configuration (the hierarchy's emulated block tier, DRAM, PM and policy),
     * for an engine that opens the store itself, empty, and loads it through its own API: then the
     * engine owns the store and closes it before this target. Callable once, instead of {@link #load}.
     */
    public PageStoreConfig.Builder storeConfig() {
        if (configured || closed) {
            throw new IllegalStateException("page target for " + policyName + " is already configured or closed");
        }
        configured = true;
        PageStoreConfig.Builder config = PageStoreConfig.builder()
                .pageSize(tiers.pageSize())
                .dramBytes(tiers.dramBytes())
                .blockDevice(blockTier.measuredDevice())
                .policy(initialPolicy);
        if (pmFile != null) {
            config.pm(pmFile, tiers.pmBytes() + tiers.pageSize());
            config.pmModel(tiers.pmModel());
        }
        tuningEpoch.ifPresent(config::adaptive);
        config.nonHierarchicalCaching(nonHierarchical);
        return config;
    }

    /**
     * The measured store's block device alone, without a page store over it (emulated where the
     * hierarchy emulates its SSD, else the run's real file), for an engine that keeps its own format on
     * the device. The device is a view the engine may close; {@link #close()} releases the real one.
     * Callable once, instead of {@link #load} and {@link #storeConfig}.
     */
    public io.most.device.BlockDevice measuredDevice() {
        if (configured || closed) {
            throw new IllegalStateException("page target for " + policyName + " is already configured or closed");
        }
        configured = true;
        return blockTier.measuredDevice();
    }

    /** Whether the block tier is emulated (else it is a real file in the run's directory). */
    public boolean emulated() {
        return tiers.hierarchy().emulatesSsd();
    }

    /** Whether the block tier is a real file read and written through the OS page cache (else O_DIRECT or emulated). */
    public boolean cachedFile() {
        return tiers.hierarchy().cachedFile();
    }

    /** The hierarchy's name ({@code --hierarchy}). */
    public String hierarchyName() {
        return tiers.hierarchyName();
    }

    /** The measured store, after {@link #load}. */
    public PageStore store() {
        if (store == null) {
            throw new IllegalStateException("page target for " + policyName + " is not loaded yet");
        }
        return store;
    }

    /** The policy the store started with. */
    MigrationPolicy initialPolicy() {
        return initialPolicy;
    }

    /** The annealing epoch, if the tuner runs. */
    public Optional<Duration> tuningEpoch() {
        return tuningEpoch;
    }

    /** When the measured store opened (the tuner's clock starts here). */
    public long openedAtNanos() {
        return openedAtNanos;
    }

    /** Runs {@code hook} first thing in {@link #close()} (a workload's helper threads stop there). */
    public void whenClosed(Runnable hook) {
        closeHooks.add(hook);
    }

    /** Warm-up is over: the block tier counts its devices' operations, and the PM model its accesses, from now on. */
    public void beginMeasurement() {
        blockTier.beginMeasurement();
        pmUsage = PmUsage.begin(tiers.pmModel());
    }

    /** Adds the target's configuration, and what its block tier did since warm-up, to a run's fields. */
    public void describe(Map<String, Object> fields) {
        tiers.describe(fields);
        blockTier.report(fields);
        if (pmUsage != null) {
            pmUsage.report(fields);
        }
        fields.put("load_s", Units.round(loadSeconds, 2));
        fields.put("policy_initial", initialPolicy.toString());
        fields.put("adaptive", tuningEpoch.isPresent());
        tuningEpoch.ifPresent(e -> fields.put("tuning_epoch_s", e.toNanos() / 1e9));
    }

    /** Closes the store (a checkpoint through the emulated block tier), the devices, and deletes the files. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException failure = null;
        for (Runnable hook : closeHooks) {
            try {
                hook.run();
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        try {
            if (store != null) {
                store.close();
            }
        } catch (RuntimeException e) {
            failure = e;
        }
        try {
            blockTier.close();
        } catch (RuntimeException e) {
            failure = failure == null ? e : failure;
        }
        failure = deleteQuietly(pmFile, failure);
        if (failure != null) {
            throw failure;
        }
    }

    /** Deletes {@code file} if any; returns {@code failure}, or a new one if the delete failed. */
    static RuntimeException deleteQuietly(Path file, RuntimeException failure) {
        if (file == null) {
            return failure;
        }
        try {
            Files.deleteIfExists(file);
            ScratchFiles.forget(file);
            return failure;
        } catch (IOException e) {
            RuntimeException mine = new java.io.UncheckedIOException("cannot delete " + file, e);
            if (failure != null) {
                failure.addSuppressed(mine);
                return failure;
            }
            return mine;
        }
    }

    @Override
    public String toString() {
        return "PageTarget[" + policyName + " on " + tiers.hierarchyName() + "]";
    }
}
