package io.most.tier;

import io.most.tier.policy.PlacementPolicy;
import io.most.tier.policy.PolicyContext;
import io.most.tier.policy.SegmentClass;
import io.most.tier.policy.Tier;
import io.most.errors.ConfigurationException;
import io.most.errors.MostException;
import io.most.device.AbstractBlockDevice;
import io.most.device.BlockDevice;
import io.most.device.IoRequest;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * Mirror-Optimized Storage Tiering over two block devices, as one {@link BlockDevice}: a logical
 * address space of fixed-size segments, each tiered on the performance device, tiered on the
 * capacity device, or mirrored on both with per-subpage validity (Tu et al., "Getting the MOST out
 * of your Storage Hierarchy"). Where data goes and which copy serves a request is decided by a
 * {@link PlacementPolicy} — {@link io.most.tier.policy.MostPolicy} by default — on top of mechanisms every policy shares:
 * HeMem-style hotness counters, per-device latency measured end to end, a rate-limited migrator
 * that counts every byte, a selective cleaner, and crash-consistent metadata.
 *
 * <pre>{@code
 * try (TieredVolume volume = TieredVolume.open(optane, nvme, TierConfig.defaults())) {
 *     volume.write(0, page);
 *     volume.force();
 * }
 * }</pre>
 *
 * <p><b>Devices.</b> Any two block devices with the same block size; they may differ in size. The
 * volume keeps its metadata (superblock, two checkpoints, a journal) on the performance device and a
 * copy of its superblock on the capacity device; {@link #capacity()} is one segment less than the data
 * slots of both together. Blocks never written read as zeros when the devices were zero when
 * formatted. The volume owns the devices once opened and closes them on {@link #close()}; if
 * {@link #open} fails they stay open and untouched for the caller. A volume is open at most once:
 * a second {@link #open} of a volume open in this JVM is refused ({@link ConfigurationException}), and
 * one open in another process is refused by the devices' file locks.
 *
 * <p><b>Durability.</b> As for any block device: a write is durable once a later {@link #force()} has
 * returned. After a crash, reopening with {@link #open} recovers the segment map from the newest
 * checkpoint and the journal: every forced write reads back, no stale copy of a mirrored segment is
 * ever served, and a block reads the same value every time (see {@code docs/TIERING.md}).
 *
 * <p><b>Discard.</b> {@link #discard} of whole segments unmaps them: both copies of a mirrored
 * segment are dropped, their slots are freed (and discarded on their devices), the segment reads as
 * zeros, and its next write is placed where the policy says then (dynamic write allocation, MOST 3.2.2),
 * not where it used to be. Such a discard is committed before it returns, so it is durable at once.
 * A discard of part of a segment keeps the segment: its blocks read as the devices' discarded blocks
 * do (zeros, or the old bytes on a device that keeps them), and a mirrored segment's wholly discarded
 * subpages become valid on one copy only, so a block never reads differently from one read to the next.
 *
 * <p><b>Errors.</b> Device I/O errors surface as the device's {@code DeviceIOException}, naming the
 * device. A read of mirrored data whose chosen copy fails is served by the other copy when that copy
 * is valid too; a write whose chosen copy fails goes to the other copy when it may. Mirroring covers
 * only the hot, mirrored class: a failed device loses every tiered segment on it.
 *
 * <p><b>More than two devices.</b> {@link #open(List, TierConfig)} takes an ordered list of devices,
 * fastest first, and stacks two-device volumes: {@code open(d0, open(d1, ... open(dn-2, dn-1)))}. Each
 * level mirrors between its device and the volume below it (mirroring between adjacent tiers), and its
 * policy balances its device's latency against the latency of the whole volume below, which balances
 * its own devices the same way; so at equilibrium every device is balanced against the rest. Each level
 * keeps its own crash-consistent metadata on its own performance device. See {@code docs/TIERING.md}.
 *
 * <p><b>Batches.</b> {@link #transferAll} routes each request as {@link #read} and {@link #write} route
 * a single one (a mirrored read draws its copy per request) and sends each device its share as one batch,
 * both devices' batches in flight together, so a device with a queue sees the batch's queue depth.
 *
 * <p>Thread-safe: reads and writes may run concurrently from any number of threads.
 */
public final class TieredVolume extends AbstractBlockDevice {
    private static final int ZERO_BUFFER = 1 << 20;
    private static final long MIN_BURST_INTERVAL_NANOS = 200_000_000L;

    private final TierConfig config;
    private final VolumeLayout layout;
    private final TierChain chain;
    private final BlockDevice performance;
    private final BlockDevice capacity;
    private final Arena arena = Arena.ofShared();
    private final SegmentTable table;
    private final SegmentCodec codec;
    private final HotnessTracker hotness;
    private final LatencyMonitor latency;
    private final SlotPool[] pools;
    private final Watermarks watermarks;
    private final Journal journal;
    private final CheckpointStore checkpoints;
    private final MetadataLog log;
    private final RateLimiter limiter;
    private final Counters counters = new Counters();
    private final Migrator migrator;
    private final VolumeIo io;
    private final PairedBatches pairedBatches;
    private final VolumeBatch batches;
    private final VolumeDiscard discards;
    private final VolumeContext context;
    private final Cleaner cleaner;
    private volatile PlacementPolicy policy;
    private volatile Optimizer optimizer;
    private volatile boolean halted;
    /** Set only when an N-device open fails above this level: close without closing the caller's devices. */
    private volatile boolean keepDevices;

    private TieredVolume(String name, TierConfig config, VolumeLayout layout, TierChain chain, BlockDevice performance,
                         BlockDevice capacity) {
        super(name, layout.blockSize(), layout.logicalBytes());
        this.config = config;
        this.layout = layout;
        this.chain = chain;
        this.performance = performance;
        this.capacity = capacity;
        int subpages = layout.segmentSize() / layout.subpageSize();
        this.table = new SegmentTable(layout.logicalSegments(), subpages);
        this.codec = new SegmentCodec(subpages);
        this.hotness = new HotnessTracker(layout.logicalSegments(), config.hotThreshold(), config.coolingThreshold());
        this.latency = new LatencyMonitor(config.latencyEwmaAlpha());
        this.pools = new SlotPool[] {new SlotPool(Tier.PERFORMANCE, layout.perfSlots()),
                new SlotPool(Tier.CAPACITY, layout.capSlots())};
        this.watermarks = new Watermarks(performance, layout.watermarkOffset(), layout.salt(), layout.perfSlots(),
                layout.capSlots(), arena);
        this.journal = new Journal(performance, layout.journalOffset(), layout.journalBytes(), layout.salt(), arena);
        this.checkpoints = new CheckpointStore(performance, layout.checkpointOffset(), layout.checkpointBytes(),
                layout.salt(), codec, hotness::export);
        this.log = new MetadataLog(table, codec, journal, checkpoints, performance, capacity);
        long burstNanos = 2 * Math.max(config.optimizerInterval().toNanos(), MIN_BURST_INTERVAL_NANOS);
        this.limiter = new RateLimiter(config.migrationBytesPerSecond(), Math.max(layout.segmentSize(),
                (long) Math.min(Long.MAX_VALUE / 4, config.migrationBytesPerSecond() * (burstNanos / 1e9))));
        BlockDevice[] devices = {performance, capacity};
        this.pairedBatches = new PairedBatches(name, devices);
        this.migrator = new Migrator(layout, table, devices, pools, watermarks, log, limiter, counters, pairedBatches,
                arena);
        MemorySegment zeros = performance.allocate(arena, Math.min(layout.segmentSize(), ZERO_BUFFER));
        this.io = new VolumeIo(layout, table, devices, pools, watermarks, hotness, latency, log, migrator, counters,
                zeros);
        this.batches = new VolumeBatch(layout, table, hotness, latency, log, migrator, counters, io, pairedBatches);
        this.discards = new VolumeDiscard(layout, table, devices, pools, hotness, log, migrator);
        this.context = new VolumeContext(config, layout, table, hotness, latency, pools, migrator, limiter);
        this.cleaner = new Cleaner(table, migrator, limiter, layout.subpageSize());
    }

    /**
     * Opens the tiered volume on {@code performance} and {@code capacity}: formats it if both devices
     * are blank, otherwise recovers it (after a clean close or a crash alike).
     *
     * @throws ConfigurationException if the devices' block sizes differ, a device is too small for the
     *                                metadata and one segment, a device holds other data or belongs to
     *                                another volume or the other role, a device was resized, or the
     *                                configured segment or subpage size differs from the volume's; the
     *                                message says what to change, and nothing has been written; also if
     *                                the volume is open in this JVM already
     * @throws MostException          if the volume's metadata is damaged beyond recovery
     */
    public static TieredVolume open(BlockDevice performance, BlockDevice capacity, TierConfig config) {
        Objects.requireNonNull(performance, "performance");
        Objects.requireNonNull(capacity, "capacity");
        Objects.requireNonNull(config, "config");
        if (capacity instanceof TieredVolume lower) {
            // a hand-built stack would record no device order; the list form records it and checks it
            throw new ConfigurationException("capacity device '" + capacity.name() + "' is a tiered volume: open all"
                    + " devices as one volume with TieredVolume.open(List, TierConfig), fastest first (here "
                    + performance.name() + ", then the devices of " + lower.name() + ")");
        }
        return openLevel(performance, capacity, config, new TierChain(null, 0, 2));
    }

    /**
     * Opens one tiered volume over an ordered list of devices, fastest first (e.g. Optane SSD, NVMe,
     * SATA flash): formats it if every device is blank, otherwise recovers it. With two devices this is
     * {@link #open(BlockDevice, BlockDevice, TierConfig)}.
     *
     * <p><b>Design: a stack of two-device volumes.</b> The volume over {@code d0..dn-1} is the two-device
     * volume over {@code d0} and the volume over {@code d1..dn-1}. Each level is the crash-tested
     * two-device volume, unchanged: it mirrors hot segments between its device and the volume below
     * (mirroring between adjacent tiers), its own policy instance (from {@link TierConfig#policy()})
     * routes and migrates by comparing its device's latency with the latency of the whole volume below
     * measured end to end, and it keeps its metadata on its own performance device. As each level
     * balances its device against the rest, at equilibrium all devices are balanced; a promoting policy
     * keeps the hottest data on {@code d0}, the hottest of the rest on {@code d1}, and so on (HeMem's
     * order), because a lower level only sees the requests the levels above did not serve. A flat
     * N-way volume (one map, N copies) was not chosen: it would need a new metadata format, recovery and
     * crash suite, and routing over N latencies, for a gain the stack also gets. What the stack costs:
     * each level's migration budget is its own, and a level's migrations count as foreground requests
     * (heat, latency) of the level below. See {@code docs/TIERING.md}.
     *
     * <p>Every level's superblock records the list's id, its position and the list's length, so a list
     * whose order changed since creation, a list of other devices and a part of a list opened alone are
     * refused by name. Levels are named {@code config.name()} (top) and {@code config.name() + "/" + i}
     * for the level starting at device {@code i} (with no name: {@code tier(d0+tier(d1+d2))} etc.), so
     * each level's metrics are tagged apart. The returned volume owns the whole stack: {@link #close()}
     * checkpoints and closes each level top-down, and {@link #force()} makes every level durable (a
     * level's commit forces the volume below, which commits its own metadata first). If the open
     * fails, the devices stay open for the caller (levels opened already are checkpointed and released).
     *
     * @param fastestFirst the devices, at least two, fastest first, all with the same block size
     * @throws ConfigurationException as {@link #open(BlockDevice, BlockDevice, TierConfig)}, and if fewer
     *                                than two devices are given, a device is given twice, the block sizes
     *                                differ, or the devices belong to a list of another length, another
     *                                volume, or another order (the message gives the order to pass)
     * @throws MostException          if a level's metadata is damaged beyond recovery
     */
    public static TieredVolume open(List<? extends BlockDevice> fastestFirst, TierConfig config) {
        Objects.requireNonNull(fastestFirst, "fastestFirst");
        Objects.requireNonNull(config, "config");
        List<BlockDevice> devices = List.copyOf(fastestFirst);
        OpenPlan.requireList(devices);
        if (devices.size() == 2) {
            return open(devices.get(0), devices.get(1), config);
        }
        UUID recorded = DeviceOrder.check(devices);
        UUID listId = recorded != null ? recorded : OpenPlan.randomId(); // all blank: a new list
        List<TieredVolume> opened = new ArrayList<>();
        BlockDevice below = devices.getLast();
        try {
            for (int i = devices.size() - 2; i >= 0; i--) {
                TierConfig levelConfig = config.name() == null || i == 0 ? config : config.named(config.name() + "/" + i);
                TieredVolume level = openLevel(devices.get(i), below, levelConfig,
                        new TierChain(listId, i, devices.size()));
                opened.add(level);
                below = level;
            }
        } catch (RuntimeException | Error e) {
            for (TieredVolume level : opened.reversed()) { // the upper level first: it still writes to the lower one
                try {
                    level.keepDevices = true;
                    level.close();
                } catch (RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
        return (TieredVolume) below;
    }

    /** Opens one level: the two-device volume over {@code performance} and {@code capacity}, at {@code chain}. */
    private static TieredVolume openLevel(BlockDevice performance, BlockDevice capacity, TierConfig config,
                                          TierChain chain) {
        OpenPlan plan = OpenPlan.of(performance, capacity, config, chain);
        VolumeLayout layout = plan.layout();
        boolean fresh = plan.format();
        String name = config.name() != null ? config.name()
                : "tier(" + performance.name() + "+" + capacity.name() + ")";
        PlacementPolicy policy = Objects.requireNonNull(config.policy().get(), "the policy supplier returned null");
        OpenVolumes.register(layout.volumeId(), name, performance, capacity);
        TieredVolume volume;
        try {
            volume = new TieredVolume(name, config, layout, plan.chain(), performance, capacity);
        } catch (RuntimeException | Error e) {
            OpenVolumes.release(layout.volumeId(), performance);
            throw e;
        }
        try {
            if (fresh) {
                volume.format();
            } else {
                volume.recover();
            }
            volume.start(policy);
            return volume;
        } catch (RuntimeException e) {
            volume.arena.close();
            OpenVolumes.release(layout.volumeId(), performance);
            throw e;
        }
    }


    /** Writes a new volume: superblocks (the performance one marked unfinished until the end), watermarks, checkpoint. */
    private void format() {
        layout.writeLabel(performance, Tier.PERFORMANCE, false, chain);
        layout.writeLabel(capacity, Tier.CAPACITY, true, chain.next());
        watermarks.format();
        journal.resume(1, 0, 0);
        log.resume(0, 1, 1);
        log.checkpoint();
        layout.writeLabel(performance, Tier.PERFORMANCE, true, chain);
    }

    /** Recovers the volume's state from its devices (see {@link Recovery}) and checkpoints it. */
    private void recover() {
        counters.resyncedSubpages = new Recovery(layout, performance, codec, table, pools, watermarks, hotness)
                .run(checkpoints, journal, log);
        log.checkpoint(); // makes the settled state durable and starts a fresh journal
    }

    private void start(PlacementPolicy p) {
        policy = p;
        io.policy(p);
        p.attach(context);
        optimizer = new Optimizer(name(), config.optimizerInterval().toNanos(), latency, p, context, cleaner, log,
                counters);
        optimizer.start();
    }

    @Override
    protected void doRead(long offset, MemorySegment destination) {
        requireLive();
        io.read(offset, destination);
    }

    @Override
    protected void doWrite(long offset, MemorySegment source) {
        requireLive();
        io.write(offset, source);
    }

    /** Routes each request as {@link #read} and {@link #write} do, and sends each device its share as one batch. */
    @Override
    protected void doTransferAll(List<IoRequest> requests) {
        requireLive();
        batches.transferAll(name(), requests);
    }

    /** See the class comment ("Discard") and {@link VolumeDiscard}. */
    @Override
    protected void doDiscard(long offset, long length) {
        requireLive();
        discards.discard(offset, length);
    }

    @Override
    protected void doForce() {
        requireLive();
        log.commit();
    }

    @Override
    protected void doClose() {
        optimizer.stop();
        pairedBatches.shutdown();
        if (halted) {
            arena.close();
            return; // a simulated crash: leave the devices as they are (halt() released the volume's id)
        }
        RuntimeException failure = null;
        try {
            log.checkpoint(); // forces both devices; a clean close recovers from the checkpoint alone
        } catch (RuntimeException e) {
            failure = e;
        }
        // the capacity device last: when it is the volume below, it checkpoints after this level's last write
        for (BlockDevice device : keepDevices ? new BlockDevice[0] : new BlockDevice[] {performance, capacity}) {
            try {
                device.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        arena.close();
        OpenVolumes.release(layout.volumeId(), performance); // last: a reopen must not start while the checkpoint is written
        if (failure != null) {
            throw failure;
        }
    }

    private void requireLive() {
        if (halted) {
            throw new IllegalStateException("tiered volume '" + name() + "' was halted");
        }
    }

    /** The placement policy in use. */
    public PlacementPolicy policy() {
        return policy;
    }

    /** The performance device. */
    public BlockDevice performanceDevice() {
        return performance;
    }

    /** The capacity device: for a volume over more than two devices, the volume over the slower ones. */
    public BlockDevice capacityDevice() {
        return capacity;
    }

    /** The devices under this volume, fastest first, as passed to {@link #open(List, TierConfig)}. */
    public List<BlockDevice> devices() {
        List<BlockDevice> devices = new ArrayList<>();
        devices.add(performance);
        if (capacity instanceof TieredVolume lower) {
            devices.addAll(lower.devices());
        } else {
            devices.add(capacity);
        }
        return List.copyOf(devices);
    }

    /**
     * The levels of this volume, top first: this volume, then for more than two devices the volume over
     * the slower ones, and so on; {@code levels().get(i)} balances device {@code i} against the devices
     * after it. A two-device volume has one level.
     */
    public List<TieredVolume> levels() {
        List<TieredVolume> levels = new ArrayList<>();
        for (BlockDevice level = this; level instanceof TieredVolume v; level = v.capacity) {
            levels.add(v);
        }
        return List.copyOf(levels);
    }

    /** The configuration the volume was opened with. */
    public TierConfig config() {
        return config;
    }

    /** Bytes per segment. */
    public int segmentSize() {
        return layout.segmentSize();
    }

    /** Where the segment holding byte {@code offset} lives now. */
    public SegmentClass segmentClassAt(long offset) {
        if (offset < 0 || offset >= capacity()) {
            throw new IllegalArgumentException("offset " + offset + " is outside the volume's " + capacity() + " bytes");
        }
        return table.classOf((int) (offset / layout.segmentSize()));
    }

    /** A snapshot of the volume's state and counters. */
    public TierStats tierStats() {
        long mirrored = 0;
        long invalid = 0;
        for (int s = 0; s < table.size(); s++) {
            MirrorState m = table.mirror(s);
            if (m != null) {
                mirrored++;
                invalid += m.invalidCount();
            }
        }
        long subpages = (long) layout.segmentSize() / layout.subpageSize();
        PlacementPolicy p = policy;
        return new TierStats(p.name(), p.offloadRatio(), latency.nanos(Tier.PERFORMANCE),
                latency.nanos(Tier.CAPACITY), layout.segmentSize(), layout.logicalSegments(),
                table.tieredSegments(Tier.PERFORMANCE), table.tieredSegments(Tier.CAPACITY), mirrored,
                pools[0].free(), pools[1].free(), counters.migratedToPerformance.sum(),
                counters.migratedToCapacity.sum(), counters.migrations.sum(), mirrored * subpages - invalid, invalid,
                counters.cleaningWrites.sum(), counters.cleaningBytes.sum(), counters.readRetries.sum(),
                counters.writeRetries.sum(), counters.zeroedBytes.sum(), log.journalBatches(), log.journalBytes(),
                log.intentRecords(), log.checkpoints(), log.checkpointNanos(), counters.resyncedSubpages,
                counters.backgroundErrors.sum());
    }

    /** The in-memory metadata of this volume as it is now (see {@link MetadataFootprint}). */
    public MetadataFootprint metadataFootprint() {
        return MetadataFootprint.of(layout.logicalSegments(), table.mirroredSegments(),
                layout.segmentSize() / layout.subpageSize());
    }

    // ---------------------------------------------------------------- for tests in this package

    /** Runs one optimizer interval on the calling thread. */
    void optimizeNow() {
        optimizer.tick();
    }

    /** Byte offset of the segment's copy on {@code tier}'s device, or -1 if it has none. */
    long slotOffset(int segment, Tier tier) {
        int slot = table.slot(segment, tier);
        return slot == SegmentTable.NONE ? -1 : layout.slotOffset(tier, slot);
    }

    /** Takes a checkpoint now. */
    void checkpointNow() {
        log.checkpoint();
    }

    /** The policy context, as the policy sees it. */
    PolicyContext context() {
        return context;
    }

    /** The state of subpage {@code k} of {@code segment}, or -1 if it is not mirrored. */
    int subpageState(int segment, int k) {
        MirrorState m = table.mirror(segment);
        return m == null ? -1 : m.state(k);
    }

    /**
     * Simulates a crash: stops the background thread and fails every later call, without flushing,
     * checkpointing or closing the devices, which a new {@link #open} may then recover from.
     */
    void halt() {
        halted = true;
        optimizer.stop();
        OpenVolumes.release(layout.volumeId(), performance); // a dead process holds nothing: the volume may be recovered
        if (capacity instanceof TieredVolume lower) {
            lower.halt(); // the whole process dies, every level with it
        }
    }
}
