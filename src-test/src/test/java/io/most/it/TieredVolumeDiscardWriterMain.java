package io.most.it;

import io.most.device.DirectFileDevice;
import io.most.tier.policy.MirroredWrite;
import io.most.tier.policy.PlacementPolicy;
import io.most.tier.policy.PolicyContext;
import io.most.tier.policy.Tier;
import io.most.tier.TierConfig;
import io.most.tier.TieredVolume;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The child of {@link TieredVolumeDiscardCrashTest}: a {@link TieredVolume} over two
 * {@link DirectFileDevice} files with 64 KiB segments, whose policy ({@link Shuffling}) places each new
 * segment on a random device and, every 2 ms, mirrors, unmirrors or moves a random segment, while
 * writer threads write and force {@link CheckedBlock}s and one thread discards whole segments and parts
 * of segments, until the test kills it with SIGKILL.
 *
 * <p>A segment's discard and the writes to it are ordered by a per-segment lock (writes shared, the
 * discard exclusive), so the transcript tells for each write whether it came before or after each
 * discard. Protocol, one line each:
 * <ul>
 *   <li>{@code READY} once the volume is open;</li>
 *   <li>{@code WRITE <block> <generation>} before that write is issued (under the segment's lock);</li>
 *   <li>{@code DURABLE <block> <generation>} after a {@code force()} issued after that write completed
 *       has returned;</li>
 *   <li>{@code DISCARD <segment>} before a discard of the whole segment, {@code DISCARDED <segment>}
 *       once it returned (both under the segment's lock);</li>
 *   <li>{@code PDISCARD <segment> <first block> <blocks>} before a discard of part of a segment, and
 *       {@code PDISCARDED <segment>} once it returned;</li>
 *   <li>{@code BAD <what>} if a read in this process saw a block it must not.</li>
 * </ul>
 * Arguments: {@code <performance file> <capacity file> <seed> <run id>}.
 */
public final class TieredVolumeDiscardWriterMain {
    static final long PERF_BYTES = 4L << 20;
    static final long CAP_BYTES = 8L << 20;
    static final int SEGMENT = 64 * 1024;
    static final int SEGMENTS = 24;
    static final int BLOCKS_PER_SEGMENT = SEGMENT / CheckedBlock.SIZE;
    static final int BLOCKS = SEGMENTS * BLOCKS_PER_SEGMENT;
    static final int WRITERS = 2;
    private static final long MAX_RUN_NANOS = 60_000_000_000L;

    private TieredVolumeDiscardWriterMain() {
    }

    /** The volume's configuration with {@code policy}; the test reopens with its own. */
    static TierConfig config(PlacementPolicy policy) {
        return TierConfig.builder()
                .segmentSize(SEGMENT)
                .optimizerInterval(Duration.ofMillis(2))
                .journalBytes(64 * 1024)
                .migrationBytesPerSecond(256L << 20)
                .policy(() -> policy)
                .build();
    }

    static TieredVolume open(Path perf, Path cap, PlacementPolicy policy) {
        DirectFileDevice p = DirectFileDevice.open(perf, PERF_BYTES);
        DirectFileDevice c;
        try {
            c = DirectFileDevice.open(cap, CAP_BYTES);
        } catch (RuntimeException e) {
            p.close();
            throw e;
        }
        try {
            return TieredVolume.open(p, c, config(policy));
        } catch (RuntimeException e) {
            p.close();
            c.close();
            throw e;
        }
    }

    public static void main(String[] args) {
        ForkedJvm.exitWhenParentDies();
        long seed = Long.parseLong(args[2]);
        long run = Long.parseLong(args[3]);
        ForkedJvm.LineWriter out = ForkedJvm.lineWriter();
        TieredVolume volume = open(Path.of(args[0]), Path.of(args[1]), new Shuffling(seed, Tier.PERFORMANCE));
        ReentrantReadWriteLock[] locks = new ReentrantReadWriteLock[SEGMENTS];
        for (int s = 0; s < SEGMENTS; s++) {
            locks[s] = new ReentrantReadWriteLock();
        }
        AtomicLongArray issued = new AtomicLongArray(BLOCKS);
        out.println("READY");
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < WRITERS; t++) {
            int id = t;
            SplittableRandom random = new SplittableRandom(seed + 1000L * t);
            threads.add(Thread.ofPlatform().daemon().name("writer-" + t).start(() ->
                    write(volume, id, random, run, locks, issued, out)));
        }
        SplittableRandom random = new SplittableRandom(seed - 1);
        long start = System.nanoTime();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = volume.allocate(arena, CheckedBlock.SIZE);
            while (System.nanoTime() - start < MAX_RUN_NANOS) {
                LockSupport.parkNanos(1_000_000L + random.nextLong(3_000_000L));
                int segment = random.nextInt(SEGMENTS);
                locks[segment].writeLock().lock();
                try {
                    if (random.nextInt(3) > 0) {
                        out.println("DISCARD " + segment);
                        volume.discard((long) segment * SEGMENT, SEGMENT);
                        out.println("DISCARDED " + segment);
                        // a discarded segment reads as zeros until written again
                        int block = segment * BLOCKS_PER_SEGMENT + random.nextInt(BLOCKS_PER_SEGMENT);
                        volume.read((long) block * CheckedBlock.SIZE, buffer);
                        CheckedBlock.Content c = CheckedBlock.inspect(buffer, run, block);
                        if (c.state() != CheckedBlock.State.UNWRITTEN) {
                            out.println("BAD block " + block + " read as " + c + " right after its segment's discard");
                        }
                    } else {
                        int first = random.nextInt(BLOCKS_PER_SEGMENT - 1);
                        int n = 1 + random.nextInt(BLOCKS_PER_SEGMENT - first - 1);
                        out.println("PDISCARD " + segment + " " + first + " " + n);
                        volume.discard((long) segment * SEGMENT + (long) first * CheckedBlock.SIZE,
                                (long) n * CheckedBlock.SIZE);
                        out.println("PDISCARDED " + segment);
                    }
                } finally {
                    locks[segment].writeLock().unlock();
                }
            }
        }
        System.err.println("TieredVolumeDiscardWriterMain ran out of time without being killed");
        System.exit(2);
    }

    private static void write(TieredVolume volume, int id, SplittableRandom random, long run,
                              ReentrantReadWriteLock[] locks, AtomicLongArray issued, ForkedJvm.LineWriter out) {
        LinkedHashSet<Integer> pending = new LinkedHashSet<>();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = volume.allocate(arena, CheckedBlock.SIZE);
            while (true) {
                int batch = 1 + random.nextInt(6);
                for (int i = 0; i < batch; i++) {
                    int block = random.nextInt(BLOCKS / WRITERS) * WRITERS + id;
                    int segment = block / BLOCKS_PER_SEGMENT;
                    long g = issued.get(block) + 1;
                    issued.set(block, g);
                    CheckedBlock.fill(buffer, run, block, g);
                    locks[segment].readLock().lock();
                    try {
                        out.println("WRITE " + block + " " + g);
                        volume.write((long) block * CheckedBlock.SIZE, buffer);
                        volume.read((long) block * CheckedBlock.SIZE, buffer);
                        CheckedBlock.Content c = CheckedBlock.inspect(buffer, run, block);
                        if (c.state() != CheckedBlock.State.VALID || c.generation() != g) {
                            out.println("BAD block " + block + " read back as " + c + " right after generation " + g);
                        }
                    } finally {
                        locks[segment].readLock().unlock();
                    }
                    pending.add(block);
                }
                volume.force();
                StringBuilder durable = new StringBuilder();
                for (int block : pending) {
                    if (!durable.isEmpty()) {
                        durable.append('\n');
                    }
                    durable.append("DURABLE ").append(block).append(' ').append(issued.get(block));
                }
                pending.clear();
                out.println(durable.toString());
            }
        }
    }

    /**
     * Places each new segment on a random device (so a segment written again after a discard lands on
     * either), routes mirrored writes at random, and in {@link #optimize} mirrors, unmirrors or moves
     * a random segment; mirrored reads go to {@link #reads}.
     */
    static final class Shuffling implements PlacementPolicy {
        private final SplittableRandom random;
        volatile Tier reads;

        Shuffling(long seed, Tier reads) {
            this.random = new SplittableRandom(seed);
            this.reads = reads;
        }

        @Override
        public String name() {
            return "shuffling";
        }

        @Override
        public synchronized Tier placeNewSegment(int segment) {
            return random.nextBoolean() ? Tier.PERFORMANCE : Tier.CAPACITY;
        }

        @Override
        public Tier routeMirroredRead(int segment) {
            return reads;
        }

        @Override
        public synchronized MirroredWrite routeMirroredWrite(int segment) {
            return random.nextBoolean() ? MirroredWrite.PERFORMANCE : MirroredWrite.CAPACITY;
        }

        @Override
        public void optimize(PolicyContext context) {
            int segment;
            int action;
            synchronized (this) {
                segment = random.nextInt(Math.min(SEGMENTS, context.segmentCount()));
                action = random.nextInt(3);
            }
            switch (action) {
                case 0 -> context.mirror(segment);
                case 1 -> context.unmirror(segment, context.preferredCopy(segment));
                default -> context.move(segment, segment % 2 == 0 ? Tier.PERFORMANCE : Tier.CAPACITY);
            }
        }

        @Override
        public double cleaningPriority(int segment, PolicyContext context) {
            return 1;
        }
    }
}
