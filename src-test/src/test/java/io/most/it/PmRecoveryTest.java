package io.most.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.MigrationPath;
import io.most.PageStoreStats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Recovery of the PM buffer after kill -9, the part Spitfire left unimplemented (paper section 5.2):
 * the writer ({@link PageStoreWriterMain}) runs the eager policy over a PM pool larger than all its
 * pages, so a dirty page evicted from DRAM always goes to PM, PM never evicts, and the block device
 * never receives a data page: after {@code flush()} (which writes dirty DRAM pages to PM, and PM is
 * durable) the newest durable version of every page lives only in PM. After the kill the store must
 * rebuild its PM mapping from the frames' headers: {@code recoveredPmPages} is every page, every page
 * reads its flushed version or a newer written one ({@link StoreCrashVerifier}), and reading all of
 * them is served from PM without a single block-device read. That the block device never received a
 * data page is checked independently by scanning its file for page headers before reopening.
 *
 * <p>{@link #pmBufferIsRebuiltAfterAKillWhileWriting} kills the writer at random moments while it keeps
 * writing after each flush; a kill inside an out-of-place PM update leaves two valid frames of one
 * page, which recovery must resolve by write sequence.
 *
 * <p>Seeds as in {@link PageStoreCrashTest}: printed, in every failure, {@code -Dmost.crash.seed}.
 */
@Tag("crash")
class PmRecoveryTest {
    private static final int PAGES = 200;
    private static final int DRAM_FRAMES = 32;
    /** Room for every page plus the new frame of an out-of-place update: PM never has to evict. */
    private static final int PM_FRAMES = 256;
    private static final int KILLS = Integer.getInteger("most.crash.kills", 4);
    private static final long SEED = Long.getLong("most.crash.seed", System.nanoTime());

    static {
        System.out.println("PmRecoveryTest seed " + SEED + " (rerun with -Dmost.crash.seed=" + SEED + ")");
    }

    @TempDir
    Path dir;

    /**
     * Killed while parked right after a {@code flush()}: no write-back is in flight, so PM holds
     * exactly one valid frame per page.
     */
    @ParameterizedTest(name = "kill #{0}")
    @ValueSource(ints = {0, 1})
    void pmBufferIsRebuiltAfterAKillRightAfterFlush(int iteration) throws Exception {
        SplittableRandom random = new SplittableRandom(SEED * 17 + iteration);
        int flushEvery = 1 + random.nextInt(4);
        CrashStoreSpec spec = spec(random, flushEvery, flushEvery * (1 + random.nextInt(8)));
        String where = "[seed " + SEED + ", parked kill #" + iteration + ": " + spec + "]";
        Path storeDir = Files.createDirectories(dir.resolve("parked-" + iteration));
        WriterKills.KillOutcome outcome = WriterKills.whileParked(storeDir, spec, where);
        assertNoDataPageOnTheBlockDevice(storeDir, spec, where);
        StoreCrashVerifier.Result result = StoreCrashVerifier.verify(storeDir, spec, outcome.lines(), where);
        assertEquals(spec.parkAfterRound(), result.transcript().lastDurableRound(), where);
        assertEquals(0, result.pagesNewer(), where + " nothing was written after the last flush");
        assertServedFromPm(result, where);
        System.out.println(where + " killed " + outcome.killPoint() + ": " + result.summary());
    }

    /**
     * The writer keeps writing after each flush and is killed at a random moment ({@link WriterKills}),
     * so that out-of-place PM updates are cut at every step.
     */
    @ParameterizedTest(name = "kill #{0}")
    @MethodSource("kills")
    void pmBufferIsRebuiltAfterAKillWhileWriting(int iteration) throws Exception {
        SplittableRandom random = new SplittableRandom(SEED * 13 + iteration);
        CrashStoreSpec spec = spec(random, 1 + random.nextInt(4), 0);
        String where = "[seed " + SEED + ", kill #" + iteration + ": " + spec + "]";
        Path storeDir = Files.createDirectories(dir.resolve("kill-" + iteration));
        WriterKills.KillOutcome outcome = WriterKills.atRandomMoment(storeDir, spec, random, where);
        assertNoDataPageOnTheBlockDevice(storeDir, spec, where + " killed " + outcome.killPoint());
        StoreCrashVerifier.Result result = StoreCrashVerifier.verify(storeDir, spec, outcome.lines(), where);
        if (result.transcript().allocationDurable()) {
            assertServedFromPm(result, where + " killed " + outcome.killPoint());
        }
        System.out.println(where + " killed " + outcome.killPoint() + ": " + result.summary());
    }

    static IntStream kills() {
        return IntStream.range(0, KILLS);
    }

    private static CrashStoreSpec spec(SplittableRandom random, int flushEvery, int parkAfter) {
        int pageSize = random.nextBoolean() ? 4096 : 16384;
        return new CrashStoreSpec("eager", pageSize, PAGES, DRAM_FRAMES, PM_FRAMES, flushEvery, true, PAGES / 4, 20,
                parkAfter, random.nextLong());
    }

    private static void assertNoDataPageOnTheBlockDevice(Path storeDir, CrashStoreSpec spec, String where) {
        assertEquals(0, StoreFiles.countValidImages(storeDir.resolve(CrashStoreSpec.SSD_FILE), spec.pageSize()),
                where + " page images on the block device: the eager policy with room in PM must keep them all in PM");
    }

    /** After CHECKPOINT 0 every page has its newest durable copy in PM and nowhere else. */
    private static void assertServedFromPm(StoreCrashVerifier.Result result, String where) {
        PageStoreStats atOpen = result.atOpen();
        PageStoreStats reads = result.afterReads();
        assertEquals(PAGES, atOpen.recoveredPmPages(), where + " pages recovered from PM: " + atOpen);
        assertEquals(0, reads.ssdReads(), where + " reading every page after recovery read the block device: " + reads);
        assertEquals(0, reads.misses(), where + " reading every page after recovery missed PM: " + reads);
        assertEquals(PAGES, reads.migrations(MigrationPath.PM_TO_DRAM),
                where + " every page should have been copied from PM to DRAM (eager Dr = 1): " + reads);
        assertTrue(reads.pmHits() >= PAGES, where + " PM hits: " + reads);
    }
}
