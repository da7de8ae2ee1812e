package io.most.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.most.device.BlockDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kill -9 tests of the device layer: a child JVM ({@link DeviceWriterMain}) writes checked blocks to
 * a {@link io.most.device.DirectFileDevice} or {@link io.most.device.PmemDevice} and reports every
 * write it issues and every write a {@code force()}/{@code persist()} made durable; the test kills it
 * with SIGKILL at a random moment, reopens the file in this JVM and checks each block against the
 * transcript:
 * <ul>
 *   <li>a block with no write after its last durable generation holds exactly that generation
 *       (or is all zero if it was never written);</li>
 *   <li>a block with newer writes in flight holds its last durable generation or one of the newer
 *       generations that were issued, never an older one and never one that was not issued;</li>
 *   <li>on an O_DIRECT device every block passes its checksum (a 4 KiB O_DIRECT write is not torn
 *       by a process kill). On PM a block write is a memory copy, so only the one block whose write
 *       was cut by the kill may fail its checksum; any other failing block is an error.</li>
 * </ul>
 * The kill moment is either a random delay after the first durable write or the arrival of the n-th
 * {@code WRITE} line, so it lands in writes, forces and the gaps between them. Randomness comes from
 * one seed, printed and included in every failure; rerun with {@code -Dmost.crash.seed=<seed>}.
 * Ten kills per device type take a few seconds; {@code -Dmost.crash.kills=<n>} changes the number.
 */
@Tag("crash")
class DeviceCrashTest {
    private static final int BLOCKS = 128;
    /** Kills per device type; raise it for a soak run with {@code -Dmost.crash.kills=200}. */
    private static final int KILLS_PER_KIND = Integer.getInteger("most.crash.kills", 10);
    private static final int SIGKILL_EXIT = 128 + 9;
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final List<String> CHILD_JVM_OPTIONS =
            List.of("-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    private static final long SEED = Long.getLong("most.crash.seed", System.nanoTime());

    static {
        System.out.println("DeviceCrashTest seed " + SEED + " (rerun with -Dmost.crash.seed=" + SEED + ")");
    }

    @TempDir
    Path dir;

    static Stream<Arguments> kills() {
        List<Arguments> kills = new ArrayList<>();
        for (DeviceKind kind : DeviceKind.values()) {
            for (int i = 0; i < KILLS_PER_KIND; i++) {
                kills.add(Arguments.of(kind, i));
            }
        }
        return kills.stream();
    }

    @ParameterizedTest(name = "{0} kill #{1}")
    @MethodSource("kills")
    void killedWriterLosesNoDurableWriteAndLeavesNoGarbage(DeviceKind kind, int iteration) throws Exception {
        SplittableRandom random = new SplittableRandom(SEED * 31 + kind.ordinal() * 1000L + iteration);
        long childSeed = random.nextLong();
        long run = random.nextLong();
        String where = "[seed " + SEED + ", " + kind + " kill #" + iteration + "]";
        Path file = dir.resolve(kind.name().toLowerCase() + "-" + iteration + ".dev");

        String killPoint;
        List<String> transcript;
        try (ForkedJvm child = ForkedJvm.start(CHILD_JVM_OPTIONS, DeviceWriterMain.class, List.of(
                kind.name(), file.toString(), Integer.toString(BLOCKS), Long.toString(childSeed), Long.toString(run)))) {
            if (random.nextBoolean()) {
                int nth = 1 + random.nextInt(600);
                AtomicInteger writes = new AtomicInteger();
                child.killAtLine(line -> line.startsWith("WRITE ") && writes.incrementAndGet() == nth);
                child.awaitLine("READY"::equals, PATIENCE);
                int exit = child.awaitExit(PATIENCE);
                assertEquals(SIGKILL_EXIT, exit, where + " child " + child + " ended before its kill at WRITE line "
                        + nth + "; standard error:\n" + child.stderrTail());
                killPoint = "at WRITE line " + nth + " (" + child.killedAtLine().orElseThrow() + ")";
            } else {
                int delayMillis = random.nextInt(200);
                child.awaitLine("READY"::equals, PATIENCE);
                child.awaitLine(line -> line.startsWith("DURABLE "), PATIENCE);
                Thread.sleep(delayMillis);
                assertTrue(child.isAlive(), where + " child " + child + " died before its kill; standard error:\n"
                        + child.stderrTail());
                int exit = child.kill();
                assertEquals(SIGKILL_EXIT, exit, where + " exit status of killed child " + child);
                killPoint = delayMillis + " ms after the first durable write";
            }
            transcript = child.lines();
        }

        Transcript t = Transcript.parse(transcript, BLOCKS, where);
        Verdict verdict = verify(kind, file, run, t, where);
        System.out.printf("%s killed %s: %d writes issued, %d made durable; %d blocks at their durable generation,"
                        + " %d holding a newer unforced one, %d never written, %d torn in-flight (PM only)%n",
                where, killPoint, t.writesIssued, t.durableReports, verdict.atDurable, verdict.newer,
                verdict.unwritten, verdict.tornInFlight);
    }

    private record Verdict(int atDurable, int newer, int unwritten, int tornInFlight) {
    }

    private static Verdict verify(DeviceKind kind, Path file, long run, Transcript t, String where) {
        int atDurable = 0;
        int newer = 0;
        int unwritten = 0;
        int torn = 0;
        List<String> errors = new ArrayList<>();
        try (BlockDevice device = kind.open(file, (long) BLOCKS * CheckedBlock.SIZE);
             Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = device.allocate(arena, CheckedBlock.SIZE);
            for (int block = 0; block < BLOCKS; block++) {
                device.read((long) block * CheckedBlock.SIZE, buffer);
                CheckedBlock.Content content = CheckedBlock.inspect(buffer, run, block);
                long durable = t.durable[block];
                long issued = t.issued[block];
                String expected = issued == durable
                        ? (durable == 0 ? "unwritten" : "generation " + durable)
                        : "generation " + Math.max(durable, 1) + ".." + issued + (durable == 0 ? " or unwritten" : "");
                switch (content.state()) {
                    case UNWRITTEN -> {
                        if (durable == 0) {
                            unwritten++;
                        } else {
                            errors.add("block " + block + " lost its durable " + expected + ": it is all zero");
                        }
                    }
                    case VALID -> {
                        long g = content.generation();
                        if (g < durable || g > issued || (g == 0)) {
                            errors.add("block " + block + " holds generation " + g + ", expected " + expected);
                        } else if (g == durable) {
                            atDurable++;
                        } else {
                            newer++;
                        }
                    }
                    case CORRUPT -> {
                        boolean inFlight = block == t.lastWriteBlock && t.issued[block] == t.lastWriteGeneration
                                && t.durable[block] < t.lastWriteGeneration;
                        if (kind == DeviceKind.PMEM && inFlight) {
                            torn++;
                        } else {
                            errors.add("block " + block + " is " + content + ", expected " + expected
                                    + (inFlight ? " (its write was in flight at the kill: an O_DIRECT 4 KiB write"
                                    + " was torn)" : ""));
                        }
                    }
                }
            }
        }
        if (!errors.isEmpty()) {
            fail(where + " after the kill " + errors.size() + " of " + BLOCKS + " blocks of " + file
                    + " break the durability contract:\n  " + String.join("\n  ", errors));
        }
        return new Verdict(atDurable, newer, unwritten, torn);
    }

    /** What the child reported: per block, the newest generation issued and the newest made durable. */
    private static final class Transcript {
        final long[] issued;
        final long[] durable;
        int writesIssued;
        int durableReports;
        int lastWriteBlock = -1;
        long lastWriteGeneration;

        private Transcript(int blocks) {
            issued = new long[blocks];
            durable = new long[blocks];
        }

        static Transcript parse(List<String> lines, int blocks, String where) {
            Transcript t = new Transcript(blocks);
            for (String line : lines) {
                String[] f = line.split(" ");
                if (f.length == 1 && f[0].equals("READY")) {
                    continue;
                }
                if (f.length != 3 || !(f[0].equals("WRITE") || f[0].equals("DURABLE"))) {
                    fail(where + " unexpected line from the child: '" + line + "'");
                }
                int block = Integer.parseInt(f[1]);
                long g = Long.parseLong(f[2]);
                if (f[0].equals("WRITE")) {
                    assertEquals(t.issued[block] + 1, g, where + " generations of block " + block + " must grow by one: " + line);
                    t.issued[block] = g;
                    t.writesIssued++;
                    t.lastWriteBlock = block;
                    t.lastWriteGeneration = g;
                } else {
                    assertTrue(g <= t.issued[block] && g >= t.durable[block],
                            where + " DURABLE for a generation never issued or older than durable: " + line);
                    t.durable[block] = g;
                    t.durableReports++;
                }
            }
            return t;
        }
    }
}
