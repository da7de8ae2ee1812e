package io.most.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.tier.policy.Tier;
import io.most.tier.TieredVolume;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kill -9 tests of {@link TieredVolume#discard}: a child JVM ({@link TieredVolumeDiscardWriterMain})
 * writes and forces {@link CheckedBlock}s while another thread discards whole segments and parts of
 * segments and its policy places new segments on a random device and mirrors, unmirrors and moves
 * segments. The test kills it with SIGKILL during a whole-segment discard, right after one, during a
 * partial discard, or after a random delay, reopens the volume and checks every block against the
 * transcript (see {@link Model}):
 * <ul>
 *   <li>no forced write after a discard is lost: a block reads at least the generation last made
 *       durable after its segment's last discard began;</li>
 *   <li>no discarded range serves stale bytes of the old mapping: once a whole-segment discard has
 *       returned, no generation written before it ever reads back (the slots it freed and the new
 *       segments allocated in them never show through);</li>
 *   <li>every block passes its checksum and reads the same routed to either copy of a mirrored
 *       segment, twice.</li>
 * </ul>
 * The child reports a read of a discarded segment that is not zeros, or a write that does not read
 * back, as a {@code BAD} line. Rerun a failure with {@code -Dmost.crash.seed=<seed>};
 * {@code -Dmost.crash.kills=<n>} sets the kills (default 4).
 */
@Tag("crash")
class TieredVolumeDiscardCrashTest {
    private static final int KILLS = Integer.getInteger("most.crash.kills", 4);
    private static final int SIGKILL_EXIT = 128 + 9;
    private static final Duration PATIENCE = Duration.ofSeconds(40);
    private static final List<String> CHILD_JVM_OPTIONS =
            List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    private static final long SEED = Long.getLong("most.crash.seed", System.nanoTime());

    static {
        System.out.println("TieredVolumeDiscardCrashTest seed " + SEED + " (rerun with -Dmost.crash.seed=" + SEED + ")");
    }

    @TempDir
    Path dir;

    static Stream<Integer> kills() {
        return IntStream.range(0, KILLS).boxed();
    }

    @ParameterizedTest(name = "kill #{0}")
    @MethodSource("kills")
    void killedWhileDiscardingLosesNoForcedWriteAndServesNoDiscardedBytes(int iteration) throws Exception {
        SplittableRandom random = new SplittableRandom(SEED * 31 + iteration);
        long childSeed = random.nextLong();
        long run = random.nextLong();
        Path perf = dir.resolve("perf.dev");
        Path cap = dir.resolve("cap.dev");
        String where = "[seed " + SEED + ", kill #" + iteration + "]";
        String killPoint;
        List<String> transcript;
        try (ForkedJvm child = ForkedJvm.start(CHILD_JVM_OPTIONS, TieredVolumeDiscardWriterMain.class,
                List.of(perf.toString(), cap.toString(), Long.toString(childSeed), Long.toString(run)))) {
            child.awaitLine("READY"::equals, PATIENCE);
            int nth = 20 + random.nextInt(60);
            String prefix = switch (iteration % 4) {
                case 0 -> "DISCARD ";
                case 1 -> "DISCARDED ";
                case 2 -> "PDISCARD ";
                default -> null;
            };
            if (prefix != null) {
                AtomicInteger seen = new AtomicInteger();
                child.killAtLine(line -> line.startsWith(prefix) && seen.incrementAndGet() == nth);
                int exit = child.awaitExit(PATIENCE);
                assertEquals(SIGKILL_EXIT, exit, where + " child " + child + " ended before its kill at " + prefix
                        + "line " + nth + "; standard error:\n" + child.stderrTail());
                killPoint = "at '" + child.killedAtLine().orElseThrow() + "' (" + prefix.trim() + " line " + nth + ")";
            } else {
                child.awaitLine(line -> line.startsWith("DISCARDED "), PATIENCE);
                int delayMillis = 100 + random.nextInt(400);
                Thread.sleep(delayMillis);
                assertTrue(child.isAlive(), where + " child " + child + " died before its kill; standard error:\n"
                        + child.stderrTail());
                assertEquals(SIGKILL_EXIT, child.kill(), where + " exit status of killed child " + child);
                killPoint = delayMillis + " ms after the first discard";
            }
            transcript = child.lines();
        }
        Model model = Model.of(transcript, where);
        System.out.printf("%s killed %s: %d writes, %d durable, %d whole and %d partial discards%n", where, killPoint,
                model.writes, model.durables, model.discards, model.partialDiscards);
        assertTrue(model.discards > 0 && model.durables > 0, where + " the child neither discarded nor forced");
        List<String> errors = new ArrayList<>();
        for (int pass = 0; pass < 2; pass++) { // the second open recovers what the first one checkpointed
            TieredVolumeDiscardWriterMain.Shuffling policy = new TieredVolumeDiscardWriterMain.Shuffling(1, Tier.PERFORMANCE);
            try (TieredVolume volume = TieredVolumeDiscardWriterMain.open(perf, cap, policy);
                 Arena arena = Arena.ofConfined()) {
                MemorySegment buffer = volume.allocate(arena, CheckedBlock.SIZE);
                for (int block = 0; block < TieredVolumeDiscardWriterMain.BLOCKS; block++) {
                    long offset = (long) block * CheckedBlock.SIZE;
                    policy.reads = Tier.PERFORMANCE;
                    volume.read(offset, buffer);
                    CheckedBlock.Content content = CheckedBlock.inspect(buffer, run, block);
                    policy.reads = Tier.CAPACITY;
                    volume.read(offset, buffer);
                    CheckedBlock.Content other = CheckedBlock.inspect(buffer, run, block);
                    if (!content.equals(other)) {
                        errors.add("block " + block + " reads as " + content + " from the performance copy and as "
                                + other + " from the capacity copy of its " + volume.segmentClassAt(offset)
                                + " segment");
                    }
                    String problem = model.check(block, content);
                    if (problem != null) {
                        errors.add("pass " + pass + ": " + problem);
                    }
                }
            }
        }
        assertTrue(errors.isEmpty(), where + " killed " + killPoint + ": " + errors.size() + " wrong blocks, first "
                + errors.subList(0, Math.min(10, errors.size())));
    }

    /**
     * What each block may hold after the crash, from the transcript in order. Per block: {@code issued}
     * the newest generation written; {@code cut} the newest written before the last discard that
     * covered it began; {@code floor} the newest made durable after that (it must read back);
     * {@code lowest} the oldest generation that may still read back (everything before the last
     * completed whole-segment discard is gone); whether zeros are allowed (never forced since a discard,
     * or a discard under way at the kill).
     */
    static final class Model {
        private final long[] issued = new long[TieredVolumeDiscardWriterMain.BLOCKS];
        private final long[] cut = new long[TieredVolumeDiscardWriterMain.BLOCKS];
        private final long[] floor = new long[TieredVolumeDiscardWriterMain.BLOCKS];
        private final long[] lowest = new long[TieredVolumeDiscardWriterMain.BLOCKS];
        private final boolean[] zerosAllowed = new boolean[TieredVolumeDiscardWriterMain.BLOCKS];
        private final boolean[] discardUnderWay = new boolean[TieredVolumeDiscardWriterMain.SEGMENTS];
        int writes;
        int durables;
        int discards;
        int partialDiscards;

        static Model of(List<String> transcript, String where) {
            Model m = new Model();
            java.util.Arrays.fill(m.zerosAllowed, true);
            java.util.Arrays.fill(m.lowest, 1);
            for (String line : transcript) {
                String[] f = line.split(" ");
                switch (f[0]) {
                    case "WRITE" -> {
                        m.issued[Integer.parseInt(f[1])] = Long.parseLong(f[2]);
                        m.writes++;
                    }
                    case "DURABLE" -> {
                        int b = Integer.parseInt(f[1]);
                        long g = Long.parseLong(f[2]);
                        if (g > m.cut[b]) { // else its write came before a discard of it
                            m.floor[b] = Math.max(m.floor[b], g);
                            m.zerosAllowed[b] = false;
                        }
                        m.durables++;
                    }
                    case "DISCARD" -> {
                        int s = Integer.parseInt(f[1]);
                        m.discardUnderWay[s] = true;
                        for (int b : blocksOf(s, 0, TieredVolumeDiscardWriterMain.BLOCKS_PER_SEGMENT)) {
                            m.cut[b] = m.issued[b];
                        }
                    }
                    case "DISCARDED" -> {
                        int s = Integer.parseInt(f[1]);
                        m.discardUnderWay[s] = false;
                        for (int b : blocksOf(s, 0, TieredVolumeDiscardWriterMain.BLOCKS_PER_SEGMENT)) {
                            m.floor[b] = 0;
                            m.zerosAllowed[b] = true;
                            m.lowest[b] = m.cut[b] + 1;
                        }
                        m.discards++;
                    }
                    case "PDISCARD" -> {
                        // zeros or the old bytes: the floor stays for a block that reads valid
                        for (int b : blocksOf(Integer.parseInt(f[1]), Integer.parseInt(f[2]), Integer.parseInt(f[3]))) {
                            m.cut[b] = m.issued[b];
                            m.zerosAllowed[b] = true;
                        }
                        m.partialDiscards++;
                    }
                    case "BAD" -> throw new AssertionError(where + " the child reported: " + line);
                    default -> { }
                }
            }
            return m;
        }

        private static int[] blocksOf(int segment, int first, int n) {
            int base = segment * TieredVolumeDiscardWriterMain.BLOCKS_PER_SEGMENT + first;
            return IntStream.range(base, base + n).toArray();
        }

        /** Null if {@code content} is allowed for {@code block}, else what is wrong. */
        String check(int block, CheckedBlock.Content content) {
            int segment = block / TieredVolumeDiscardWriterMain.BLOCKS_PER_SEGMENT;
            boolean zerosOk = zerosAllowed[block] || discardUnderWay[segment];
            long low = Math.max(lowest[block], Math.max(floor[block], 1));
            String expected = "generations " + low + ".." + issued[block] + (zerosOk ? " or zeros" : "")
                    + " (cut " + cut[block] + ", floor " + floor[block] + ")";
            return switch (content.state()) {
                case UNWRITTEN -> zerosOk ? null : "block " + block + " reads as zeros, expected " + expected
                        + ": a forced write after its segment's discard was lost";
                case VALID -> content.generation() >= low && content.generation() <= issued[block] ? null
                        : "block " + block + " reads as " + content + ", expected " + expected
                        + (content.generation() < lowest[block] ? ": a discarded generation served" : "");
                case CORRUPT -> "block " + block + " is " + content;
            };
        }
    }
}
