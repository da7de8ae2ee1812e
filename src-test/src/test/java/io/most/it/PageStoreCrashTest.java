package io.most.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kill -9 tests of the page store: a child JVM ({@link PageStoreWriterMain}) allocates 1000 pages in
 * a store whose DRAM pool holds 32 of them and whose PM pool holds 128 (or no PM), then writes rounds
 * of self-checking page versions with increasing LSNs and checkpoints every few rounds. The test kills
 * it with SIGKILL ({@link WriterKills}), reopens the store in this JVM with the same configuration and
 * checks every page against the writer's schedule ({@link StoreCrashVerifier}): readable, exactly a
 * version the writer wrote, not older than the last checkpoint, with its LSN covered by the WAL hook,
 * the same again after one more restart; and the allocation count.
 *
 * <p>With pools of 3% (DRAM) and 13% (PM) of the data, every round evicts: dirty DRAM pages go to PM
 * or SSD as the policy draws, PM evictions write back to SSD, reads install pages in PM, so the kill
 * lands in every path of Spitfire's Figure 3. Configurations: the presets eager, lazy and hymem over
 * DRAM-PM-SSD, and a DRAM-SSD store. The page size (4 or 16 KiB) and the checkpoint interval (2 to 7
 * rounds) are drawn per kill.
 *
 * <p>DRAM-PM-SSD stores are killed both at random moments and while parked right after a checkpoint.
 * The random kills found a recovery bug (two valid PM frames of one page after a kill inside an
 * out-of-place PM update; about one kill in three hit it), fixed in most-core and pinned by
 * {@link PmDuplicateFrameTest}.
 *
 * <p>Randomness comes from one seed, printed and included in every failure; rerun with
 * {@code -Dmost.crash.seed=<seed>}. {@code -Dmost.crash.kills=<n>} sets the kills per configuration
 * and kind (default 4) for a soak run.
 */
@Tag("crash")
class PageStoreCrashTest {
    private static final int PAGES = 1000;
    private static final int DRAM_FRAMES = 32;
    private static final int PM_FRAMES = 128;
    private static final int KILLS_PER_CONFIG = Integer.getInteger("most.crash.kills", 4);
    private static final long SEED = Long.getLong("most.crash.seed", System.nanoTime());
    private static final List<String> HIERARCHIES = List.of("eager", "lazy", "hymem", "dram-ssd");
    private static final List<String> PM_HIERARCHIES = List.of("eager", "lazy", "hymem");

    static {
        System.out.println("PageStoreCrashTest seed " + SEED + " (rerun with -Dmost.crash.seed=" + SEED + ")");
    }

    @TempDir
    Path dir;

    static Stream<Arguments> dramSsdKills() {
        return kills(List.of("dram-ssd"), KILLS_PER_CONFIG);
    }

    static Stream<Arguments> pmKills() {
        return kills(PM_HIERARCHIES, KILLS_PER_CONFIG);
    }

    static Stream<Arguments> pmParkedKills() {
        return kills(PM_HIERARCHIES, KILLS_PER_CONFIG);
    }

    private static Stream<Arguments> kills(List<String> hierarchies, int perHierarchy) {
        List<Arguments> kills = new ArrayList<>();
        for (String hierarchy : hierarchies) {
            for (int i = 0; i < perHierarchy; i++) {
                kills.add(Arguments.of(hierarchy, i));
            }
        }
        return kills.stream();
    }

    @ParameterizedTest(name = "{0} kill #{1}")
    @MethodSource("dramSsdKills")
    void dramSsdStoreKilledAtRandomMoments(String hierarchy, int iteration) throws Exception {
        killAtRandomMomentAndVerify(hierarchy, iteration);
    }

    @ParameterizedTest(name = "{0} kill #{1}")
    @MethodSource("pmKills")
    void dramPmSsdStoreKilledAtRandomMoments(String hierarchy, int iteration) throws Exception {
        killAtRandomMomentAndVerify(hierarchy, iteration);
    }

    /**
     * The DRAM-PM-SSD presets killed while parked right after a checkpoint: PM then holds dirty pages,
     * clean copies and superseded frames already invalidated, which recovery must sort out.
     */
    @ParameterizedTest(name = "{0} kill #{1}")
    @MethodSource("pmParkedKills")
    void dramPmSsdStoreKilledRightAfterACheckpoint(String hierarchy, int iteration) {
        SplittableRandom random = random(hierarchy, iteration + 500);
        int durableEvery = 2 + random.nextInt(6);
        CrashStoreSpec spec = spec(hierarchy, random, durableEvery, durableEvery * (1 + random.nextInt(6)));
        String where = "[seed " + SEED + ", " + hierarchy + " parked kill #" + iteration + ": " + spec + "]";
        Path storeDir = createDirectory(hierarchy + "-parked-" + iteration);
        WriterKills.KillOutcome outcome = WriterKills.whileParked(storeDir, spec, where);
        StoreCrashVerifier.Result result = StoreCrashVerifier.verify(storeDir, spec, outcome.lines(), where);
        assertEquals(spec.parkAfterRound(), result.transcript().lastDurableRound(), where);
        assertEquals(0, result.pagesNewer(), where + " nothing was written after the last checkpoint");
        System.out.println(where + " killed " + outcome.killPoint() + ": " + result.summary());
    }

    private void killAtRandomMomentAndVerify(String hierarchy, int iteration) throws InterruptedException {
        SplittableRandom random = random(hierarchy, iteration);
        CrashStoreSpec spec = spec(hierarchy, random, 2 + random.nextInt(6), 0);
        String where = "[seed " + SEED + ", " + hierarchy + " kill #" + iteration + ": " + spec + "]";
        Path storeDir = createDirectory(hierarchy + "-" + iteration);
        WriterKills.KillOutcome outcome = WriterKills.atRandomMoment(storeDir, spec, random, where);
        StoreCrashVerifier.Result result = StoreCrashVerifier.verify(storeDir, spec, outcome.lines(), where);
        System.out.println(where + " killed " + outcome.killPoint() + ": " + result.summary());
    }

    private static SplittableRandom random(String hierarchy, int iteration) {
        return new SplittableRandom(SEED * 31 + HIERARCHIES.indexOf(hierarchy) * 1000L + iteration);
    }

    private static CrashStoreSpec spec(String hierarchy, SplittableRandom random, int durableEvery, int parkAfter) {
        int pageSize = random.nextBoolean() ? 4096 : 16384;
        return new CrashStoreSpec(hierarchy, pageSize, PAGES, DRAM_FRAMES, hierarchy.equals("dram-ssd") ? 0 : PM_FRAMES,
                durableEvery, false, PAGES / 5, 40, parkAfter, random.nextLong());
    }

    private Path createDirectory(String name) {
        try {
            return Files.createDirectories(dir.resolve(name));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
