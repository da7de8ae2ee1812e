package io.most.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.most.device.DirectFileDevice;
import io.most.tier.policy.MirroredWrite;
import io.most.tier.policy.MostPolicy;
import io.most.tier.policy.PlacementPolicy;
import io.most.tier.policy.PolicyContext;
import io.most.tier.policy.Tier;
import io.most.tier.TierStats;
import io.most.tier.TieredVolume;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kill -9 tests of the MOST {@link TieredVolume}: a child JVM ({@link TieredVolumeWriterMain}) runs
 * the volume over two {@link DirectFileDevice} files with 64 KiB segments and a 5 ms optimizer, under
 * emulated latencies that make MOST offload, mirror, clean and checkpoint, while three threads write
 * {@link CheckedBlock}s (80% to a hot set of 8 segments) and force, and three threads read and check.
 * Once the child reports that it has migrated and mirrored segments, the test kills it with SIGKILL
 * (after a random delay or at a random {@code WRITE} line), reopens the volume in this JVM and checks
 * every block against the child's transcript:
 * <ul>
 *   <li>it passes its checksum, and holds a generation between its last durable one and the newest
 *       issued (all zero only if nothing of it was durable);</li>
 *   <li>it reads the same bytes routed to the performance copy, to the capacity copy and to the
 *       performance copy again (a policy that routes mirrored reads as the test says), so no stale
 *       mirror copy is ever served, and the same once more after another close and open;</li>
 *   <li>{@link TierStats} after reopening are sane: segment counts add up, subpage counts match the
 *       mirrored segments, no background errors, the allocated segments hold every durable block.</li>
 * </ul>
 * The child itself reports any read that saw a torn block or a generation older than a completed
 * write ({@code BAD} lines fail the test).
 *
 * <p>The FAULT variant also injects one fault on the performance device shortly before the kill
 * (a reported write error or torn write of a foreground data block or of metadata, a failed force,
 * or a silently torn data write) and checks the same, except for the one block whose write failed
 * or was silently torn, which may hold anything its writes could have left but must still read the
 * same on every route.
 *
 * <p>The DOUBLE variant kills a second child too, which only reopens the volume and reads, at a random
 * moment during or soon after its recovery, and checks the same against the first child's transcript
 * (recovery settles the same way when it is cut short).
 *
 * <p>The THREE variant runs the same over three device files ({@link TieredVolume#open(List,
 * io.most.tier.TierConfig)}: one-channel NVMe, one-channel NVMe, Optane SSD), where both levels of the
 * stack offload, mirror and migrate; it kills once both levels have mirrored, after a random delay, at a
 * random {@code WRITE} line, or at a random {@code BOTH_MIGRATING} line (both levels migrated within the
 * last 100 ms: a three-way migration under way), and checks the same, with every level's mirrored reads
 * routed as the test says and every level's stats sane. Every second THREE kill is a double kill (the
 * stack killed again while its levels recover, bottom level first).
 *
 * <p>Randomness comes from one seed, printed and in every failure message; rerun with
 * {@code -Dmost.crash.seed=<seed>}. {@code -Dmost.crash.kills=<n>} sets the kills per variant
 * (default 4 plain, 6 with faults, one per kind of fault, taken in turn, 2 double kills and 4 on three
 * devices; a soak run
 * uses 30 or more).
 */
@Tag("crash")
class TieredVolumeCrashTest {
    private static final int BLOCKS = 4096;
    private static final int KILLS = Integer.getInteger("most.crash.kills", 4);
    private static final TieredVolumeWriterMain.Fault[] FAULTS = TieredVolumeWriterMain.Fault.values();
    /** Double kills: once while writing, once more during or soon after recovery. */
    private static final int RECOVERY_KILLS = Math.max(1, KILLS / 2);
    /** Kills with faults: at least one per kind of fault. */
    private static final int FAULT_KILLS = Math.max(KILLS, FAULTS.length);
    private static final int SIGKILL_EXIT = 128 + 9;
    private static final Duration PATIENCE = Duration.ofSeconds(40);
    private static final List<String> CHILD_JVM_OPTIONS =
            List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    private static final long SEED = Long.getLong("most.crash.seed", System.nanoTime());
    /**
     * Whether a DATA_TORN_REPORTED kill fails when the torn, retried and unforced write reads back torn:
     * the most-core bug that {@link TieredVolumeTornRetryTest} pins down. Off by default (the block is
     * reported, not failed) so that the build stays green until it is fixed.
     */
    /** The torn-retry bug is fixed: strict unless -Dmost.crash.strictTornRetry=false. */
    private static final boolean STRICT_TORN_RETRY =
            Boolean.parseBoolean(System.getProperty("most.crash.strictTornRetry", "true"));
    private static final int SUBPAGES_PER_SEGMENT = TieredVolumeWriterMain.SEGMENT / CheckedBlock.SIZE;

    static {
        System.out.println("TieredVolumeCrashTest seed " + SEED + " (rerun with -Dmost.crash.seed=" + SEED + ")");
    }

    @TempDir
    Path dir;

    static Stream<Integer> kills() {
        return IntStream.range(0, KILLS).boxed();
    }

    @ParameterizedTest(name = "kill #{0}")
    @MethodSource("kills")
    void killedVolumeLosesNoForcedWriteAndServesNoStaleCopy(int iteration) throws Exception {
        killAndVerify(false, iteration, 2);
    }

    @ParameterizedTest(name = "kill #{0}")
    @MethodSource("kills")
    void killedThreeDeviceVolumeLosesNoForcedWriteAndServesNoStaleCopy(int iteration) throws Exception {
        killAndVerify(false, iteration + 20_000, 3);
    }

    static Stream<Integer> faultKills() {
        return IntStream.range(0, FAULT_KILLS).boxed();
    }

    @ParameterizedTest(name = "kill #{0}")
    @MethodSource("faultKills")
    void killedAfterAnInjectedDeviceFaultLosesNoForcedWrite(int iteration) throws Exception {
        killAndVerify(true, iteration, 2);
    }

    @ParameterizedTest(name = "kill #{0}")
    @MethodSource("recoveryKills")
    void killedAgainDuringRecoveryLosesNoForcedWrite(int iteration) throws Exception {
        killAndVerify(false, iteration + 10_000, 2);
    }

    static Stream<Integer> recoveryKills() {
        return IntStream.range(0, RECOVERY_KILLS).boxed();
    }

    private void killAndVerify(boolean faults, int iteration, int devices) throws Exception {
        SplittableRandom random = new SplittableRandom(SEED * 31 + (faults ? 7_000 : 0) + iteration);
        long childSeed = random.nextLong();
        long run = random.nextLong();
        TieredVolumeWriterMain.Fault fault = faults ? FAULTS[(int) Math.floorMod(SEED + iteration, (long) FAULTS.length)]
                : null;
        String where = "[seed " + SEED + ", " + (faults ? fault : devices == 3 ? "THREE"
                : iteration >= 10_000 ? "DOUBLE" : "PLAIN") + " kill #" + iteration + "]";
        List<Path> files = IntStream.range(0, devices).mapToObj(i -> dir.resolve("device" + i + ".dev")).toList();
        String fileList = String.join(",", files.stream().map(Path::toString).toList());

        String killPoint;
        List<String> transcript;
        try (ForkedJvm child = ForkedJvm.start(CHILD_JVM_OPTIONS, TieredVolumeWriterMain.class, List.of(
                fault == null ? "PLAIN" : fault.name(), fileList, Integer.toString(BLOCKS),
                Long.toString(childSeed), Long.toString(run)))) {
            child.awaitLine("READY"::equals, PATIENCE);
            child.awaitLine("MIRRORING"::equals, PATIENCE);
            if (faults) {
                String faultLine = child.awaitLine(line -> line.startsWith("FAULT "), PATIENCE);
                int delayMillis = random.nextInt(150);
                Thread.sleep(delayMillis);
                killPoint = delayMillis + " ms after '" + faultLine + "'";
                assertTrue(child.isAlive(), where + " child " + child + " died before its kill; standard error:\n"
                        + child.stderrTail());
                assertEquals(SIGKILL_EXIT, child.kill(), where + " exit status of killed child " + child);
            } else if (devices == 3 && random.nextInt(3) == 0) {
                int nth = 1 + random.nextInt(3);
                AtomicInteger seen = new AtomicInteger();
                child.killAtLine(line -> line.equals("BOTH_MIGRATING") && seen.incrementAndGet() == nth);
                int exit = child.awaitExit(PATIENCE);
                assertEquals(SIGKILL_EXIT, exit, where + " child " + child + " ended before its kill at the " + nth
                        + "th interval in which both levels migrated; standard error:\n" + child.stderrTail());
                killPoint = "in the " + nth + "th interval in which both levels migrated (a three-way migration)";
            } else if (random.nextBoolean()) {
                int nth = 1 + random.nextInt(300);
                AtomicInteger writes = new AtomicInteger();
                child.killAtLine(line -> line.startsWith("WRITE ") && writes.incrementAndGet() == nth);
                int exit = child.awaitExit(PATIENCE);
                assertEquals(SIGKILL_EXIT, exit, where + " child " + child + " ended before its kill at WRITE line "
                        + nth + " after mirroring began; standard error:\n" + child.stderrTail());
                killPoint = "at the " + nth + "th WRITE line after mirroring began (" + child.killedAtLine().orElseThrow()
                        + ")";
            } else {
                int delayMillis = random.nextInt(400);
                Thread.sleep(delayMillis);
                assertTrue(child.isAlive(), where + " child " + child + " died before its kill; standard error:\n"
                        + child.stderrTail());
                assertEquals(SIGKILL_EXIT, child.kill(), where + " exit status of killed child " + child);
                killPoint = delayMillis + " ms after mirroring began";
            }
            transcript = child.lines();
        }

        boolean killAgain = iteration >= 10_000 && iteration < 20_000 || devices == 3 && iteration % 2 == 1;
        if (killAgain) {
            // a second crash: during recovery or while the optimizer and cleaner work on what it left
            try (ForkedJvm again = ForkedJvm.start(CHILD_JVM_OPTIONS, TieredVolumeWriterMain.class, List.of(
                    "RECOVER", fileList, Integer.toString(BLOCKS), Long.toString(childSeed)))) {
                again.awaitLine("OPENING"::equals, PATIENCE);
                int delayMillis = random.nextInt(120);
                Thread.sleep(delayMillis);
                assertTrue(again.isAlive(), where + " recovering child " + again + " died before its kill; standard"
                        + " error:\n" + again.stderrTail());
                assertEquals(SIGKILL_EXIT, again.kill(), where + " exit status of killed child " + again);
                boolean recovered = again.lines().contains("READY");
                killPoint += ", then again " + delayMillis + " ms after reopening began ("
                        + (recovered ? "after" : "before") + " open returned)";
            }
        }

        Transcript t = Transcript.parse(transcript, faults, where);
        assertTrue(t.lastStats != null && t.lastStats.contains("mirroredSegments="),
                where + " the child printed no stats");
        System.out.printf("%s killed %s: %d writes issued, %d made durable, %d write / %d force failures;"
                        + " child's last stats: %s%n", where, killPoint, t.writesIssued, t.durableReports,
                t.writeFailures, t.forceFailures, t.lastStats);
        verify(files, run, t, where);
    }

    /** Reopens the volume twice and checks every block against the transcript; see the class comment. */
    private static void verify(List<Path> files, long run, Transcript t, String where) {
        List<String> errors = new ArrayList<>();
        long[] fingerprint = new long[BLOCKS];
        int atDurable = 0;
        int newer = 0;
        int unwritten = 0;
        int suspectsCorrupt = 0;
        Route policy = new Route();
        TierStats first;
        try (TieredVolume volume = open(files, policy); Arena arena = Arena.ofConfined()) {
            first = volume.tierStats();
            checkStats(volume, t, where + " after the first reopen");
            MemorySegment buffer = volume.allocate(arena, CheckedBlock.SIZE);
            for (int block = 0; block < BLOCKS; block++) {
                long offset = (long) block * CheckedBlock.SIZE;
                policy.route = Tier.PERFORMANCE;
                volume.read(offset, buffer);
                long print = fingerprint(buffer);
                CheckedBlock.Content content = CheckedBlock.inspect(buffer, run, block);
                for (Tier route : new Tier[] {Tier.CAPACITY, Tier.PERFORMANCE, Tier.CAPACITY}) {
                    policy.route = route;
                    volume.read(offset, buffer);
                    if (fingerprint(buffer) != print) {
                        errors.add("block " + block + " read as " + content + " first, then as "
                                + CheckedBlock.inspect(buffer, run, block) + " routed to the " + route
                                + " copy of its " + volume.segmentClassAt(offset) + " segment (a stale copy served)");
                        break;
                    }
                }
                fingerprint[block] = print;
                long durable = t.durable[block];
                long issued = t.issued[block];
                boolean suspect = t.suspect.contains(block);
                String expected = (issued == durable ? (durable == 0 ? "unwritten" : "generation " + durable)
                        : "generation " + Math.max(durable, 1) + ".." + issued + (durable == 0 ? " or unwritten" : ""))
                        + (suspect ? " or torn (its write failed or was silently torn)" : "");
                switch (content.state()) {
                    case UNWRITTEN -> {
                        if (durable == 0) {
                            unwritten++;
                        } else {
                            errors.add("block " + block + " lost its durable " + expected + ": it reads as all zero");
                        }
                    }
                    case VALID -> {
                        long g = content.generation();
                        if (g < durable || g > issued || g == 0) {
                            errors.add("block " + block + " holds generation " + g + ", expected " + expected
                                    + " (in a " + volume.segmentClassAt(offset) + " segment)");
                        } else if (g == durable) {
                            atDurable++;
                        } else {
                            newer++;
                        }
                    }
                    case CORRUPT -> {
                        Long tornGeneration = t.tornReported.get(block);
                        boolean tornInFlight = tornGeneration != null && durable < tornGeneration
                                && !t.absorbed.contains(block);
                        if (suspect || tornInFlight) {
                            // a torn write reported whose outcome the kill beat (neither WFAIL nor WDONE printed)
                            // was in flight: on one copy or on a mirrored segment before its retry, an in-flight
                            // write may leave its block torn
                            suspectsCorrupt++;
                        } else if (!STRICT_TORN_RETRY && tornGeneration != null && durable < tornGeneration) {
                            System.out.printf("%s KNOWN BUG (TieredVolumeTornRetryTest): block %d, whose unforced"
                                    + " generation %d was torn on the performance copy and retried on the capacity"
                                    + " copy, is %s after the crash, expected %s%n", where, block, tornGeneration,
                                    content, expected);
                        } else {
                            errors.add("block " + block + " is " + content + ", expected " + expected
                                    + " (in a " + volume.segmentClassAt(offset) + " segment)");
                        }
                    }
                }
            }
        }
        if (!errors.isEmpty()) {
            fail(where + " after the kill " + errors.size() + " of " + BLOCKS + " blocks break the contract:\n  "
                    + String.join("\n  ", errors.subList(0, Math.min(40, errors.size()))));
        }

        // once more after a clean close: the same bytes, whichever copy serves them
        SplittableRandom random = new SplittableRandom(SEED ^ run);
        TierStats second;
        try (TieredVolume volume = open(files, policy); Arena arena = Arena.ofConfined()) {
            second = volume.tierStats();
            checkStats(volume, t, where + " after the second reopen");
            MemorySegment buffer = volume.allocate(arena, CheckedBlock.SIZE);
            for (int block = 0; block < BLOCKS; block++) {
                policy.route = random.nextBoolean() ? Tier.PERFORMANCE : Tier.CAPACITY;
                volume.read((long) block * CheckedBlock.SIZE, buffer);
                if (fingerprint(buffer) != fingerprint[block]) {
                    errors.add("block " + block + " reads as " + CheckedBlock.inspect(buffer, run, block)
                            + " after a second reopen (routed to " + policy.route + "), differently than after the first");
                }
            }
        }
        if (!errors.isEmpty()) {
            fail(where + " " + errors.size() + " blocks changed between reopens:\n  "
                    + String.join("\n  ", errors.subList(0, Math.min(40, errors.size()))));
        }
        assertEquals(allocated(first), allocated(second),
                where + " allocated segments differ between reopens: " + first + " vs " + second);
        System.out.printf("%s verified: %d blocks at their durable generation, %d newer, %d never durable and"
                        + " unwritten, %d fault-hit blocks torn; after reopen: %d mirrored, %d tiered on performance,"
                        + " %d tiered on capacity, %d resynced subpages%n", where, atDurable, newer, unwritten,
                suspectsCorrupt, first.mirroredSegments(), first.tieredPerformanceSegments(),
                first.tieredCapacitySegments(), first.resyncedSubpages());
    }

    private static long allocated(TierStats s) {
        return s.tieredPerformanceSegments() + s.tieredCapacitySegments() + s.mirroredSegments();
    }

    private static void checkStats(TieredVolume volume, Transcript t, String where) {
        for (TieredVolume level : volume.levels()) {
            checkLevelStats(level.tierStats(), where + " level " + level.name());
        }
        TierStats s = volume.tierStats();
        String message = where + " tier stats " + s;
        assertTrue(s.logicalSegments() >= (long) BLOCKS * CheckedBlock.SIZE / TieredVolumeWriterMain.SEGMENT, message);
        Set<Integer> segmentsWithData = new HashSet<>();
        for (int block = 0; block < BLOCKS; block++) {
            if (t.durable[block] > 0) {
                segmentsWithData.add(block * CheckedBlock.SIZE / TieredVolumeWriterMain.SEGMENT);
            }
        }
        assertTrue(allocated(s) >= segmentsWithData.size(), message + ": fewer allocated segments than the "
                + segmentsWithData.size() + " that hold durable blocks");
    }

    /** What holds for every level of a recovered volume. */
    private static void checkLevelStats(TierStats s, String where) {
        String message = where + " tier stats " + s;
        assertTrue(s.tieredPerformanceSegments() >= 0 && s.tieredCapacitySegments() >= 0
                && s.mirroredSegments() >= 0 && s.freePerformanceSlots() >= 0 && s.freeCapacitySlots() >= 0, message);
        assertTrue(allocated(s) <= s.logicalSegments(), message);
        assertEquals(s.mirroredSegments() * SUBPAGES_PER_SEGMENT, s.cleanSubpages() + s.invalidSubpages(),
                message + ": clean and invalid subpages must add up to the mirrored segments' subpages");
        assertTrue(s.resyncedSubpages() >= 0 && s.resyncedSubpages() <= s.mirroredSegments() * SUBPAGES_PER_SEGMENT,
                message);
        assertEquals(0, s.backgroundErrors(), message);
    }

    /** Opens the volume over the files, each level's mirrored reads routed by {@code route}. */
    private static TieredVolume open(List<Path> files, Route route) {
        List<DirectFileDevice> devices = TieredVolumeWriterMain.openFiles(files);
        try {
            return TieredVolume.open(devices, TieredVolumeWriterMain.config().policy(() -> new RoutedReads(route)).build());
        } catch (RuntimeException e) {
            devices.forEach(DirectFileDevice::close);
            throw e;
        }
    }

    /** The copy every level's mirrored reads go to, as the test says. */
    private static final class Route {
        volatile Tier route = Tier.PERFORMANCE;
    }

    private static long fingerprint(MemorySegment block) {
        CRC32C crc = new CRC32C();
        crc.update(block.asByteBuffer());
        return crc.getValue() ^ ((long) Arrays.hashCode(block.toArray(java.lang.foreign.ValueLayout.JAVA_LONG)) << 32);
    }

    /** MOST, except that mirrored reads go to the copy the test chooses (one instance per level). */
    private static final class RoutedReads implements PlacementPolicy {
        private final MostPolicy most = new MostPolicy(TieredVolumeWriterMain.settings());
        private final Route route;

        RoutedReads(Route route) {
            this.route = route;
        }

        @Override
        public String name() {
            return "routed-reads(" + most.name() + ")";
        }

        @Override
        public void attach(PolicyContext context) {
            most.attach(context);
        }

        @Override
        public Tier placeNewSegment(int segment) {
            return most.placeNewSegment(segment);
        }

        @Override
        public Tier routeMirroredRead(int segment) {
            return route.route;
        }

        @Override
        public MirroredWrite routeMirroredWrite(int segment) {
            return most.routeMirroredWrite(segment);
        }

        @Override
        public void tune(PolicyContext context) {
            most.tune(context);
        }

        @Override
        public void optimize(PolicyContext context) {
            most.optimize(context);
        }

        @Override
        public double cleaningPriority(int segment, PolicyContext context) {
            return most.cleaningPriority(segment, context);
        }

        @Override
        public double offloadRatio() {
            return most.offloadRatio();
        }
    }

    /** What the child reported: per block, the newest generation issued and the newest made durable. */
    private static final class Transcript {
        final long[] issued = new long[BLOCKS];
        final long[] durable = new long[BLOCKS];
        final Set<Integer> suspect = new HashSet<>();
        /** Blocks hit by DATA_TORN_REPORTED: the generation whose write was torn (and maybe retried). */
        final java.util.Map<Integer, Long> tornReported = new java.util.HashMap<>();
        /** Blocks whose write hit by a reported fault returned all the same (WDONE). */
        final java.util.Set<Integer> absorbed = new java.util.HashSet<>();
        int writesIssued;
        int durableReports;
        int writeFailures;
        int forceFailures;
        String lastStats;

        static Transcript parse(List<String> lines, boolean faults, String where) {
            Transcript t = new Transcript();
            List<String> bad = new ArrayList<>();
            for (String line : lines) {
                String[] f = line.split(" ");
                switch (f[0]) {
                    case "READY", "MIRRORING", "BOTH_MIGRATING" -> {
                    }
                    case "STATS" -> t.lastStats = line.substring("STATS ".length());
                    case "WRITE" -> {
                        int block = Integer.parseInt(f[1]);
                        long g = Long.parseLong(f[2]);
                        assertEquals(t.issued[block] + 1, g, where + " generations of block " + block
                                + " must grow by one: " + line);
                        t.issued[block] = g;
                        t.writesIssued++;
                    }
                    case "DURABLE" -> {
                        int block = Integer.parseInt(f[1]);
                        long g = Long.parseLong(f[2]);
                        assertTrue(g <= t.issued[block] && g >= t.durable[block],
                                where + " DURABLE for a generation never issued or older than durable: " + line);
                        t.durable[block] = g;
                        t.durableReports++;
                    }
                    case "WDONE" -> t.absorbed.add(Integer.parseInt(f[1]));
                    case "WFAIL" -> {
                        t.suspect.add(Integer.parseInt(f[1]));
                        t.writeFailures++;
                        if (!faults) {
                            bad.add(line);
                        }
                    }
                    case "FFAIL" -> {
                        t.forceFailures++;
                        if (!faults) {
                            bad.add(line);
                        }
                    }
                    case "FAULT" -> {
                        if (!faults) {
                            bad.add(line);
                        } else if (f[1].equals("DATA_TORN_SILENT")) {
                            t.suspect.add(Integer.parseInt(f[3]));
                        } else if (f[1].equals("DATA_TORN_REPORTED")) {
                            t.tornReported.put(Integer.parseInt(f[3]), Long.parseLong(f[5]));
                        }
                    }
                    default -> bad.add(line); // BAD, RFAIL, anything unexpected
                }
            }
            if (!bad.isEmpty()) {
                fail(where + " the child reported " + bad.size() + " problems while running:\n  "
                        + String.join("\n  ", bad.subList(0, Math.min(40, bad.size()))));
            }
            return t;
        }
    }
}
