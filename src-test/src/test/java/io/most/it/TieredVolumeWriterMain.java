package io.most.it;

import io.most.device.AbstractBlockDevice;
import io.most.device.BatchIOException;
import io.most.device.BlockDevice;
import io.most.device.DeviceProfiles;
import io.most.device.DirectFileDevice;
import io.most.device.EmulatedDevice;
import io.most.device.FaultyDevice;
import io.most.device.IoOp;
import io.most.device.IoRequest;
import io.most.tier.policy.MostPolicy;
import io.most.tier.TierConfig;
import io.most.tier.TierStats;
import io.most.tier.TieredVolume;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The child of {@link TieredVolumeCrashTest}: opens a {@link TieredVolume} over two
 * {@link DirectFileDevice} files, each behind an {@link EmulatedDevice} whose profile makes the
 * performance device the loaded one (one channel of a 10x-scaled PCIe 3 NVMe drive against a 10x-scaled
 * Optane SSD), so that MOST raises its offload ratio, mirrors hot segments onto the capacity device,
 * cleans and checkpoints while the child writes. Segments are 64 KiB, the optimizer runs every 5 ms,
 * the journal is 128 KiB (a checkpoint every few dozen commits) and the cleaner re-mirrors subpages read
 * 4 times since their last write.
 *
 * <p>With three device files ({@link TieredVolume#open(List, TierConfig)}) the middle device is another
 * one-channel NVMe drive and the Optane SSD is last, so both levels offload, mirror and migrate: the
 * top level from its NVMe device onto the volume below, that one from its NVMe device onto the Optane
 * SSD; {@code MIRRORING} then waits for both levels, and {@code BOTH_MIGRATING} is printed whenever both
 * levels migrated within the same 100 ms (a kill point during a three-way migration).
 *
 * <p>Arguments: {@code <PLAIN|fault kind|RECOVER> <device files, comma-separated, fastest first> <blocks>
 * <seed> <run id>}. Writer threads
 * own disjoint sets of blocks ({@code block % WRITERS}), so each block's generations grow by one in
 * one thread, and write rounds of up to {@link #MAX_ROUND} blocks between forces, half of the rounds as
 * one {@link TieredVolume#transferAll} batch (the volume's batch path, both devices in flight together,
 * io_uring below when the kernel allows it); reader threads check what they read against the
 * generations issued and completed. Protocol, one line each (several lines of one thread may come in one write):
 * <ul>
 *   <li>{@code READY} once the volume is open;</li>
 *   <li>{@code WRITE <block> <generation>} before that write is issued;</li>
 *   <li>{@code DURABLE <block> <generation>} after a {@code force()} issued after that write completed
 *       has returned;</li>
 *   <li>{@code WFAIL <block> <generation> <message>} if the write threw (the block then holds its old
 *       value, the new one or a torn mix, and is never written again); {@code FFAIL <message>} if a
 *       {@code force()} threw (its blocks stay pending for the next one); {@code WDONE <block>
 *       <generation>} if a write hit by a reported fault returned all the same (the volume absorbed it);</li>
 *   <li>{@code BAD <what>} if a reader saw a torn block, a generation never issued, or one older than a
 *       write that had completed before the read began (a stale copy served);</li>
 *   <li>{@code STATS <TierStats>} every 100 ms; {@code MIRRORING} once, when the volume has both
 *       migrated and mirrored segments;</li>
 *   <li>FAULT variant only: {@code FAULT <kind> ...} when a fault is injected on the performance
 *       device (see {@link Fault}); {@code FAULT DATA_... block <b> gen <g> ...} names the foreground
 *       write it hit.</li>
 * </ul>
 */
public final class TieredVolumeWriterMain {
    static final long PERF_BYTES = 8L << 20;
    static final long CAP_BYTES = 32L << 20;
    /** The middle device of the three-device variant. */
    static final long MID_BYTES = 16L << 20;
    static final int SEGMENT = 64 * 1024;
    /** The first blocks take most of the traffic: 8 segments. */
    static final int HOT_BLOCKS = 128;
    static final int WRITERS = 3;
    /** Writes per round between forces; half of the rounds go as one batch ({@link TieredVolume#transferAll}). */
    static final int MAX_ROUND = 8;
    static final int READERS = 3;
    private static final long MAX_RUN_NANOS = 60_000_000_000L;
    /** Per-block fault marks: a reported fault is armed on its write; the block is never written again. */
    private static final int IN_DOUBT = 1;
    private static final int GONE = 2;

    /** Faults of the FAULT variant, all on the performance device. */
    enum Fault {
        /** A foreground write of a checked block throws, nothing written. */
        DATA_WRITE_ERROR,
        /** A foreground write of a checked block persists a prefix and throws. */
        DATA_TORN_REPORTED,
        /** A foreground write of a checked block persists a prefix and reports success (a lying device). */
        DATA_TORN_SILENT,
        /** The next metadata write (journal, checkpoint, watermark, superblock) persists a prefix and throws. */
        META_TORN_REPORTED,
        /** The next metadata write throws, nothing written. */
        META_WRITE_ERROR,
        /** The next force of the performance device throws. */
        FORCE_ERROR
    }

    private TieredVolumeWriterMain() {
    }

    /** The volume's configuration, shared with the test (which reopens with another read routing). */
    static TierConfig.Builder config() {
        return TierConfig.builder()
                .segmentSize(SEGMENT)
                .optimizerInterval(Duration.ofMillis(5))
                .journalBytes(128 * 1024)
                .migrationBytesPerSecond(64L << 20)
                .policy(() -> new MostPolicy(settings()));
    }

    /** MOST's settings: offloading capped at half (mirroring starts sooner), cleaning from 4 reads between writes. */
    static MostPolicy.Settings settings() {
        return MostPolicy.Settings.defaults().withMaxOffloadRatio(0.5).withMinRewriteDistance(4);
    }

    /** The device files of a comma-separated argument, fastest first. */
    static List<Path> files(String arg) {
        return Arrays.stream(arg.split(",")).map(Path::of).toList();
    }

    /** The file sizes, fastest first: {@link #PERF_BYTES}, {@link #MID_BYTES} with three, {@link #CAP_BYTES}. */
    static long bytes(int device, int devices) {
        return device == 0 ? PERF_BYTES : device == devices - 1 ? CAP_BYTES : MID_BYTES;
    }

    /**
     * The volume's devices over {@code raw}: one-channel NVMe for all but the last, an Optane SSD last
     * (the loaded devices are the fast-listed ones, so every level offloads). The first may be wrapped.
     */
    static List<BlockDevice> emulated(List<? extends BlockDevice> raw) {
        List<BlockDevice> devices = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            boolean last = i == raw.size() - 1;
            devices.add(new EmulatedDevice(i == 0 ? "perf" : last ? "cap" : "mid" + i, raw.get(i),
                    last ? DeviceProfiles.get("optane-ssd") : DeviceProfiles.get("nvme-pcie3").withChannels(1)));
        }
        return devices;
    }

    static List<DirectFileDevice> openFiles(List<Path> files) {
        List<DirectFileDevice> raw = new ArrayList<>();
        try {
            for (int i = 0; i < files.size(); i++) {
                raw.add(DirectFileDevice.open(files.get(i), bytes(i, files.size())));
            }
        } catch (RuntimeException e) {
            raw.forEach(DirectFileDevice::close);
            throw e;
        }
        return raw;
    }

    public static void main(String[] args) throws Exception {
        ForkedJvm.exitWhenParentDies();
        if (args[0].equals("RECOVER")) {
            recoverAndRead(files(args[1]), Integer.parseInt(args[2]), Long.parseLong(args[3]));
            return;
        }
        Fault chosenFault = args[0].equals("PLAIN") ? null : Fault.valueOf(args[0]);
        boolean faultVariant = chosenFault != null;
        List<Path> files = files(args[1]);
        int blocks = Integer.parseInt(args[2]);
        long seed = Long.parseLong(args[3]);
        long run = Long.parseLong(args[4]);
        ForkedJvm.LineWriter out = ForkedJvm.lineWriter();

        AtomicLongArray issued = new AtomicLongArray(blocks);
        AtomicLongArray completed = new AtomicLongArray(blocks);
        AtomicIntegerArray suspect = new AtomicIntegerArray(blocks);

        List<BlockDevice> raw = new ArrayList<>(openFiles(files));
        FaultTap tap = faultVariant ? new FaultTap(new FaultyDevice(raw.getFirst()), run, out, suspect) : null;
        if (tap != null) {
            raw.set(0, tap);
        }
        TieredVolume volume = TieredVolume.open(emulated(raw), config().build());
        if ((long) blocks * CheckedBlock.SIZE > volume.capacity()) {
            throw new IllegalArgumentException(blocks + " blocks do not fit in " + volume.capacity() + " bytes");
        }
        out.println("READY");
        AtomicBoolean mirroring = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < WRITERS; t++) {
            int id = t;
            SplittableRandom random = new SplittableRandom(seed + 1000L * t);
            threads.add(Thread.ofPlatform().daemon().name("writer-" + t).start(() ->
                    write(volume, id, random, blocks, run, issued, completed, suspect, out)));
        }
        for (int t = 0; t < READERS; t++) {
            SplittableRandom random = new SplittableRandom(seed - 1000L * (t + 1));
            threads.add(Thread.ofPlatform().daemon().name("reader-" + t).start(() ->
                    read(volume, random, blocks, run, issued, completed, suspect, out)));
        }
        long start = System.nanoTime();
        SplittableRandom faultRandom = new SplittableRandom(seed ^ 0x5DEECE66DL);
        long faultAt = -1;
        List<TieredVolume> levels = volume.levels();
        long[] migrations = new long[levels.size()];
        while (System.nanoTime() - start < MAX_RUN_NANOS) {
            LockSupport.parkNanos(100_000_000L);
            TierStats stats = volume.tierStats();
            out.println("STATS " + stats);
            boolean everyLevelMirrors = true;
            boolean everyLevelMigrated = true;
            for (int i = 0; i < levels.size(); i++) {
                TierStats level = i == 0 ? stats : levels.get(i).tierStats();
                everyLevelMirrors &= level.migrations() > 0 && level.mirroredSegments() > 0;
                everyLevelMigrated &= level.migrations() > migrations[i];
                migrations[i] = level.migrations();
            }
            if (levels.size() > 1 && everyLevelMigrated && mirroring.get()) {
                out.println("BOTH_MIGRATING");
            }
            if (!mirroring.get() && everyLevelMirrors) {
                mirroring.set(true);
                out.println("MIRRORING");
                faultAt = System.nanoTime() + faultRandom.nextLong(200_000_000L);
            }
            if (tap != null && faultAt >= 0 && System.nanoTime() >= faultAt) {
                faultAt = -1;
                tap.arm(chosenFault, 1 + faultRandom.nextInt(CheckedBlock.SIZE - 1));
            }
        }
        System.err.println("TieredVolumeWriterMain ran out of time without being killed");
        System.exit(2);
    }

    /**
     * The RECOVER mode: prints {@code OPENING}, recovers the volume (to be killed during recovery or
     * soon after), prints {@code READY} and then only reads (with the emulated devices and the
     * optimizer running, so the cleaner re-mirrors what recovery left on one copy) until killed.
     */
    private static void recoverAndRead(List<Path> files, int blocks, long seed) {
        ForkedJvm.LineWriter out = ForkedJvm.lineWriter();
        List<BlockDevice> devices = emulated(openFiles(files));
        out.println("OPENING");
        TieredVolume volume = TieredVolume.open(devices, config().build());
        out.println("READY");
        SplittableRandom random = new SplittableRandom(seed);
        long start = System.nanoTime();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = volume.allocate(arena, CheckedBlock.SIZE);
            while (System.nanoTime() - start < MAX_RUN_NANOS) {
                int block = random.nextInt(10) < 9 ? random.nextInt(HOT_BLOCKS) : random.nextInt(blocks);
                volume.read((long) block * CheckedBlock.SIZE, buffer);
            }
        }
        System.err.println("TieredVolumeWriterMain ran out of time without being killed");
        System.exit(2);
    }

    private static int pick(SplittableRandom random, int blocks, int owner, int owners) {
        int b = random.nextInt(5) < 4 ? random.nextInt(HOT_BLOCKS) : random.nextInt(blocks);
        b = b - b % owners + owner;
        return b < blocks ? b : owner;
    }

    private static void write(TieredVolume volume, int id, SplittableRandom random, int blocks, long run,
                              AtomicLongArray issued, AtomicLongArray completed,
                              AtomicIntegerArray suspect, ForkedJvm.LineWriter out) {
        LinkedHashSet<Integer> pending = new LinkedHashSet<>();
        // shared, not confined: a batch's buffers may then go to the helper thread of the capacity device
        try (Arena arena = Arena.ofShared()) {
            MemorySegment buffer = volume.allocate(arena, CheckedBlock.SIZE);
            MemorySegment[] batchBuffers = new MemorySegment[MAX_ROUND];
            for (int i = 0; i < MAX_ROUND; i++) {
                batchBuffers[i] = volume.allocate(arena, CheckedBlock.SIZE);
            }
            while (true) {
                int round = 1 + random.nextInt(MAX_ROUND);
                if (random.nextBoolean()) {
                    writeBatch(volume, id, random, blocks, run, round, batchBuffers, buffer, issued, completed, suspect,
                            pending, out);
                } else {
                    for (int i = 0; i < round; i++) {
                        int block = pick(random, blocks, id, WRITERS);
                        if (suspect.get(block) == GONE) {
                            continue;
                        }
                        long g = issue(block, run, issued, buffer, out);
                        try {
                            volume.write((long) block * CheckedBlock.SIZE, buffer);
                        } catch (RuntimeException e) {
                            failed(block, g, e, suspect, pending, out);
                            continue;
                        }
                        written(volume, block, g, run, random, buffer, completed, suspect, pending, out);
                    }
                }
                try {
                    volume.force();
                } catch (RuntimeException e) {
                    out.println("FFAIL " + oneLine(e));
                    continue;
                }
                StringBuilder durable = new StringBuilder();
                for (int block : pending) {
                    if (!durable.isEmpty()) {
                        durable.append('\n');
                    }
                    durable.append("DURABLE ").append(block).append(' ').append(completed.get(block));
                }
                pending.clear();
                if (!durable.isEmpty()) {
                    out.println(durable.toString());
                }
            }
        }
    }

    /**
     * One round's writes of distinct blocks as one {@link TieredVolume#transferAll} batch (all in flight
     * together on the devices); each write's outcome is reported as for a single write.
     */
    private static void writeBatch(TieredVolume volume, int id, SplittableRandom random, int blocks, long run,
                                   int round, MemorySegment[] buffers, MemorySegment check, AtomicLongArray issued,
                                   AtomicLongArray completed, AtomicIntegerArray suspect, LinkedHashSet<Integer> pending,
                                   ForkedJvm.LineWriter out) {
        List<IoRequest> requests = new ArrayList<>();
        List<Integer> blocksOf = new ArrayList<>();
        List<Long> generations = new ArrayList<>();
        for (int i = 0; i < round; i++) {
            int block = pick(random, blocks, id, WRITERS);
            if (suspect.get(block) == GONE || blocksOf.contains(block)) {
                continue; // one write per block and batch: two of one batch would race each other
            }
            MemorySegment buffer = buffers[requests.size()];
            generations.add(issue(block, run, issued, buffer, out));
            blocksOf.add(block);
            requests.add(IoRequest.write((long) block * CheckedBlock.SIZE, buffer));
        }
        if (requests.isEmpty()) {
            return;
        }
        Map<Integer, RuntimeException> failures = Map.of();
        RuntimeException all = null;
        try {
            volume.transferAll(requests);
        } catch (BatchIOException e) {
            failures = e.failures();
        } catch (RuntimeException e) {
            all = e;
        }
        for (int i = 0; i < requests.size(); i++) {
            int block = blocksOf.get(i);
            RuntimeException e = all != null ? all : failures.get(i);
            if (e != null) {
                failed(block, generations.get(i), e, suspect, pending, out);
            } else {
                written(volume, block, generations.get(i), run, random, check, completed, suspect, pending, out);
            }
        }
    }

    /** Announces and fills the next generation of {@code block} into {@code buffer}; returns the generation. */
    private static long issue(int block, long run, AtomicLongArray issued, MemorySegment buffer, ForkedJvm.LineWriter out) {
        long g = issued.get(block) + 1;
        out.println("WRITE " + block + " " + g);
        issued.set(block, g);
        CheckedBlock.fill(buffer, run, block, g);
        return g;
    }

    private static void failed(int block, long g, RuntimeException e, AtomicIntegerArray suspect,
                               LinkedHashSet<Integer> pending, ForkedJvm.LineWriter out) {
        suspect.set(block, GONE);
        pending.remove(block);
        out.println("WFAIL " + block + " " + g + " " + oneLine(e));
    }

    /** A write of generation {@code g} completed: pending until the next force; sometimes read back at once. */
    private static void written(TieredVolume volume, int block, long g, long run, SplittableRandom random,
                                MemorySegment buffer, AtomicLongArray completed, AtomicIntegerArray suspect,
                                LinkedHashSet<Integer> pending, ForkedJvm.LineWriter out) {
        // a reported fault the volume absorbed (retried on the other copy) leaves the block as good as any
        if (suspect.compareAndSet(block, IN_DOUBT, 0)) {
            out.println("WDONE " + block + " " + g);
        }
        completed.set(block, g);
        pending.add(block);
        if (random.nextInt(4) == 0 && suspect.get(block) == 0) { // read your own write: exactly this generation
            volume.read((long) block * CheckedBlock.SIZE, buffer);
            CheckedBlock.Content c = CheckedBlock.inspect(buffer, run, block);
            if (c.state() != CheckedBlock.State.VALID || c.generation() != g) {
                out.println("BAD block " + block + " read back as " + c + " right after writing generation " + g);
            }
        }
    }

    private static void read(TieredVolume volume, SplittableRandom random, int blocks, long run,
                             AtomicLongArray issued, AtomicLongArray completed,
                             AtomicIntegerArray suspect, ForkedJvm.LineWriter out) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = volume.allocate(arena, CheckedBlock.SIZE);
            while (true) {
                int block = random.nextInt(10) < 9 ? random.nextInt(HOT_BLOCKS) : random.nextInt(blocks);
                long low = completed.get(block);
                try {
                    volume.read((long) block * CheckedBlock.SIZE, buffer);
                } catch (RuntimeException e) {
                    out.println("RFAIL " + block + " " + oneLine(e));
                    continue;
                }
                long high = issued.get(block);
                if (suspect.get(block) != 0) {
                    continue;
                }
                CheckedBlock.Content c = CheckedBlock.inspect(buffer, run, block);
                boolean ok = switch (c.state()) {
                    case UNWRITTEN -> low == 0;
                    case VALID -> c.generation() >= Math.max(1, low) && c.generation() <= high;
                    case CORRUPT -> false;
                };
                if (!ok && suspect.get(block) == 0) {
                    out.println("BAD block " + block + " read as " + c + " while generations " + low + ".." + high
                            + " were possible");
                }
            }
        }
    }

    private static String oneLine(Throwable e) {
        return (e.getClass().getSimpleName() + ": " + e.getMessage()).replace('\n', ' ');
    }

    /**
     * Between the emulated performance device and its {@link FaultyDevice}: arms the chosen fault on
     * the faulty device just before the write it is meant for (a foreground write of a checked block by
     * a writer thread, or a metadata write), holding off every other write meanwhile so that the fault
     * hits exactly that one, and reports it with a {@code FAULT} line first.
     */
    static final class FaultTap extends AbstractBlockDevice {
        private final FaultyDevice faulty;
        private final long run;
        private final ForkedJvm.LineWriter out;
        private final AtomicIntegerArray suspect;
        private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
        private final AtomicReference<Fault> armed = new AtomicReference<>();
        private volatile int tornBytes;

        FaultTap(FaultyDevice faulty, long run, ForkedJvm.LineWriter out, AtomicIntegerArray suspect) {
            super("tap-" + faulty.name(), faulty.blockSize(), faulty.capacity());
            this.faulty = faulty;
            this.run = run;
            this.out = out;
            this.suspect = suspect;
        }

        void arm(Fault fault, int bytes) {
            tornBytes = bytes;
            if (fault == Fault.FORCE_ERROR) {
                out.println("FAULT " + fault);
                faulty.failNext(IoOp.FORCE, 1);
            } else {
                armed.set(fault);
            }
        }

        @Override
        protected void doRead(long offset, MemorySegment destination) {
            faulty.read(offset, destination);
        }

        @Override
        protected void doWrite(long offset, MemorySegment source) {
            Fault fault = armed.get();
            if (fault != null && matches(fault, source)) {
                lock.writeLock().lock();
                try {
                    if (armed.compareAndSet(fault, null)) {
                        inject(fault, offset, source);
                        faulty.write(offset, source);
                        return;
                    }
                } finally {
                    lock.writeLock().unlock();
                }
            }
            lock.readLock().lock();
            try {
                faulty.write(offset, source);
            } finally {
                lock.readLock().unlock();
            }
        }

        private boolean matches(Fault fault, MemorySegment source) {
            boolean data = source.byteSize() == CheckedBlock.SIZE
                    && source.get(ValueLayout.JAVA_LONG_UNALIGNED, 8) == CheckedBlock.MAGIC
                    && source.get(ValueLayout.JAVA_LONG_UNALIGNED, 32) == run;
            return switch (fault) {
                case DATA_WRITE_ERROR, DATA_TORN_REPORTED, DATA_TORN_SILENT ->
                        data && Thread.currentThread().getName().startsWith("writer-");
                case META_TORN_REPORTED, META_WRITE_ERROR ->
                        source.get(ValueLayout.JAVA_LONG_UNALIGNED, 8) != CheckedBlock.MAGIC && !zeroFirstBlock(source);
                case FORCE_ERROR -> false;
            };
        }

        private static boolean zeroFirstBlock(MemorySegment source) {
            long n = Math.min(source.byteSize(), CheckedBlock.SIZE);
            for (long at = 0; at < n; at += Long.BYTES) {
                if (source.get(ValueLayout.JAVA_LONG_UNALIGNED, at) != 0) {
                    return false;
                }
            }
            return true;
        }

        private void inject(Fault fault, long offset, MemorySegment source) {
            int bytes = tornBytes;
            switch (fault) {
                case DATA_WRITE_ERROR, DATA_TORN_REPORTED, DATA_TORN_SILENT -> {
                    int block = (int) source.get(ValueLayout.JAVA_LONG_UNALIGNED, 16);
                    long g = source.get(ValueLayout.JAVA_LONG_UNALIGNED, 24);
                    suspect.set(block, fault == Fault.DATA_TORN_SILENT ? GONE : IN_DOUBT);
                    out.println("FAULT " + fault + " block " + block + " gen " + g + " at " + offset
                            + (fault == Fault.DATA_WRITE_ERROR ? "" : " persisted " + bytes));
                }
                default -> out.println("FAULT " + fault + " at " + offset + " length " + source.byteSize()
                        + (fault == Fault.META_WRITE_ERROR ? "" : " persisted " + bytes));
            }
            switch (fault) {
                case DATA_WRITE_ERROR, META_WRITE_ERROR -> faulty.failNext(IoOp.WRITE, 1);
                case DATA_TORN_REPORTED, META_TORN_REPORTED -> faulty.tearNextWrite(bytes, false);
                case DATA_TORN_SILENT -> faulty.tearNextWrite(bytes, true);
                case FORCE_ERROR -> throw new IllegalStateException();
            }
        }

        @Override
        protected void doForce() {
            faulty.force();
        }

        @Override
        protected void doClose() {
            faulty.close();
        }
    }
}
