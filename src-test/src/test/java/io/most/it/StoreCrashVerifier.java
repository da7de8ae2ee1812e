package io.most.it;

import static org.junit.jupiter.api.Assertions.fail;

import io.most.errors.CorruptPageException;
import io.most.Page;
import io.most.PageStore;
import io.most.PageStoreStats;
import io.most.WalHook;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Checks a page store that a {@link PageStoreWriterMain} was killed in against the writer's
 * transcript, in the test JVM. It recomputes the writer's schedule up to the last round the writer
 * announced and requires, for every allocated page:
 * <ul>
 *   <li>the read succeeds: no {@link CorruptPageException}, no other exception;</li>
 *   <li>the payload is exactly one version the writer wrote to that page (or the zero page), with the
 *       LSN it was written with, and {@link Page#lsn()} equals that LSN;</li>
 *   <li>that version is not older than the page's version at the last {@code CHECKPOINT} (or
 *       {@code FLUSHED}) line, and its LSN is not beyond what the WAL hook was asked to make durable
 *       (the store must call the hook before a page reaches PM or SSD);</li>
 *   <li>after closing and reopening the store once more, the page reads the same version again;</li>
 * </ul>
 * and that the allocation count is the writer's once {@code CHECKPOINT 0} was printed (at most that
 * before, and never a page id the writer did not allocate).
 */
final class StoreCrashVerifier {

    /** What the writer printed before it died. */
    record Transcript(boolean allocationDurable, int allocatedReported, int lastDurableRound, int lastRound,
                      int durableLines) {

        static Transcript parse(List<String> lines, CrashStoreSpec spec, String where) {
            boolean allocationDurable = false;
            int allocated = 0;
            int lastDurable = -1;
            int lastRound = 0;
            int durableLines = 0;
            String durableWord = spec.flushOnly() ? "FLUSHED" : "CHECKPOINT";
            for (String line : lines) {
                String[] f = line.split(" ", 2);
                switch (f[0]) {
                    case "READY", "PARKED" -> { }
                    case "ALLOCATED" -> allocated = Integer.parseInt(f[1]);
                    case "ROUND" -> {
                        int r = Integer.parseInt(f[1]);
                        if (r != lastRound + 1) {
                            fail(where + " rounds out of order: '" + line + "' after round " + lastRound);
                        }
                        lastRound = r;
                    }
                    case "CHECKPOINT", "FLUSHED" -> {
                        int r = Integer.parseInt(f[1]);
                        if (r == 0 && f[0].equals("CHECKPOINT")) {
                            allocationDurable = true;
                            lastDurable = 0;
                        } else if (f[0].equals(durableWord) && r == lastRound) {
                            lastDurable = r;
                            durableLines++;
                        } else {
                            fail(where + " unexpected line '" + line + "' in round " + lastRound);
                        }
                    }
                    case "FAIL" -> fail(where + " the writer found a wrong page while running: " + line);
                    case "WAL-BEYOND-ISSUED" -> fail(where + " the store asked the WAL hook to flush beyond the"
                            + " highest LSN ever issued: " + line);
                    default -> fail(where + " unexpected line from the writer: '" + line + "'");
                }
            }
            return new Transcript(allocationDurable, allocated, lastDurable, lastRound, durableLines);
        }
    }

    /** What the reopened store held. */
    record Result(Transcript transcript, long walDurableLsn, PageStoreStats atOpen, PageStoreStats afterReads,
                  int pagesAtDurableVersion, int pagesNewer, int pagesNeverWritten) {

        String summary() {
            return "rounds " + transcript.lastRound() + ", last durable round " + transcript.lastDurableRound()
                    + ", WAL durable to lsn " + walDurableLsn + "; reopened: " + atOpen.allocatedPages()
                    + " pages allocated, " + atOpen.recoveredPmPages() + " recovered from PM, "
                    + atOpen.discardedPmFrames() + " PM frames discarded; " + pagesAtDurableVersion
                    + " pages at their durable version, " + pagesNewer + " newer, " + pagesNeverWritten
                    + " never written; reads: " + afterReads.dramHits() + " DRAM hits, " + afterReads.pmHits()
                    + " PM hits, " + afterReads.ssdReads() + " SSD reads";
        }
    }

    private StoreCrashVerifier() {
    }

    /** Reopens the store in {@code dir} and checks it against {@code lines}; fails with {@code where}. */
    static Result verify(Path dir, CrashStoreSpec spec, List<String> lines, String where) {
        Transcript t = Transcript.parse(lines, spec, where);
        // the writer's history up to its last announced round: per page, the versions and their LSNs
        int pages = spec.pages();
        long[][] versions = new long[pages][];
        long[][] lsns = new long[pages][];
        int[] count = new int[pages];
        long[] durableVersion = new long[pages];
        WriteSchedule schedule = spec.schedule();
        long lsn = 0;
        for (int r = 1; r <= t.lastRound(); r++) {
            for (int id : schedule.writes(r)) {
                lsn++;
                if (versions[id] == null) {
                    versions[id] = new long[8];
                    lsns[id] = new long[8];
                } else if (count[id] == versions[id].length) {
                    versions[id] = Arrays.copyOf(versions[id], 2 * count[id]);
                    lsns[id] = Arrays.copyOf(lsns[id], 2 * count[id]);
                }
                versions[id][count[id]] = r;
                lsns[id][count[id]++] = lsn;
                if (r <= t.lastDurableRound()) {
                    durableVersion[id] = r;
                }
            }
        }
        long walDurable;
        try {
            walDurable = PageStoreWriterMain.TestWal.durableLsn(dir.resolve(CrashStoreSpec.WAL_FILE));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }

        List<String> errors = new ArrayList<>();
        AtomicReference<String> doing = new AtomicReference<>("opening the store");
        Checked checked = Liveness.call(where, doing,
                () -> check(dir, spec, t, versions, lsns, count, durableVersion, walDurable, errors, doing));
        if (!errors.isEmpty()) {
            fail(where + " " + errors.size() + " of " + pages + " pages break the crash contract ("
                    + t.lastRound() + " rounds announced, last durable round " + t.lastDurableRound()
                    + ", WAL durable to lsn " + walDurable + "):\n  "
                    + String.join("\n  ", errors.subList(0, Math.min(40, errors.size()))));
        }
        return new Result(t, walDurable, checked.atOpen, checked.afterReads, checked.atDurable, checked.newer,
                checked.neverWritten);
    }

    private record Checked(PageStoreStats atOpen, PageStoreStats afterReads, int atDurable, int newer,
                           int neverWritten) {
    }

    private static Checked check(Path dir, CrashStoreSpec spec, Transcript t, long[][] versions, long[][] lsns,
                                 int[] count, long[] durableVersion, long walDurable, List<String> errors,
                                 AtomicReference<String> doing) {
        int pages = spec.pages();
        long[] found = new long[pages];
        Arrays.fill(found, -1);
        PageStoreStats atOpen;
        PageStoreStats afterReads;
        int atDurable = 0;
        int newer = 0;
        int neverWritten = 0;
        try (PageStore store = PageStore.open(spec.config(dir, WalHook.NONE))) {
            atOpen = store.stats();
            checkAllocations(store, spec, t, atOpen, errors);
            for (int id = 0; id < pages; id++) {
                if (!store.isAllocated(id)) {
                    continue;
                }
                doing.set("reading page " + id + " after the crash");
                String problem;
                try (Page page = store.read(id)) {
                    VersionedPage.Content c = VersionedPage.inspect(page.payload(), spec.seed(), id);
                    problem = judge(c, page.lsn(), versions[id], lsns[id], count[id], durableVersion[id], walDurable);
                    if (problem == null) {
                        found[id] = c.version();
                        if (c.version() == 0) {
                            neverWritten++;
                        } else if (c.version() == durableVersion[id]) {
                            atDurable++;
                        } else {
                            newer++;
                        }
                    }
                } catch (CorruptPageException e) {
                    problem = "CorruptPageException: " + e.getMessage();
                } catch (RuntimeException e) {
                    problem = "read failed: " + e;
                }
                if (problem != null) {
                    errors.add("page " + id + ": " + problem + expectation(versions[id], count[id], durableVersion[id]));
                }
            }
            afterReads = store.stats();
        }
        doing.set("closing and reopening");
        if (errors.isEmpty()) {
            // what the reopened store served must be what it keeps: close (a checkpoint) and read again
            try (PageStore store = PageStore.open(spec.config(dir, WalHook.NONE))) {
                for (int id = 0; id < pages; id++) {
                    if (found[id] < 0) {
                        continue;
                    }
                    doing.set("reading page " + id + " after closing and reopening again");
                    try (Page page = store.read(id)) {
                        VersionedPage.Content c = VersionedPage.inspect(page.payload(), spec.seed(), id);
                        if (!c.isValid() || c.version() != found[id]) {
                            errors.add("page " + id + " read version " + found[id] + " after the crash, but " + c
                                    + " after closing and reopening again");
                        }
                    } catch (RuntimeException e) {
                        errors.add("page " + id + " read version " + found[id] + " after the crash, but failed after"
                                + " closing and reopening again: " + e);
                    }
                }
            }
        }
        return new Checked(atOpen, afterReads, atDurable, newer, neverWritten);
    }

    private static void checkAllocations(PageStore store, CrashStoreSpec spec, Transcript t, PageStoreStats stats,
                                         List<String> errors) {
        long allocated = stats.allocatedPages();
        if (t.allocationDurable() ? allocated != spec.pages() : allocated > spec.pages()) {
            errors.add("allocated pages after reopen: " + allocated + ", expected "
                    + (t.allocationDurable() ? "" : "at most ") + spec.pages()
                    + (t.allocationDurable() ? " (CHECKPOINT 0 was printed)" : " (killed before CHECKPOINT 0)"));
        }
        for (long id = spec.pages(); id < store.pageCapacity(); id++) {
            if (store.isAllocated(id)) {
                errors.add("page " + id + " is allocated, but the writer never allocated it");
            }
        }
        if (t.allocationDurable()) {
            for (long id = 0; id < spec.pages(); id++) {
                if (!store.isAllocated(id)) {
                    errors.add("page " + id + " is not allocated after CHECKPOINT 0");
                }
            }
        }
    }

    /** Null if the page's content is allowed, else what is wrong. */
    private static String judge(VersionedPage.Content c, long pageLsn, long[] versions, long[] lsns, int count,
                                long durableVersion, long walDurable) {
        if (!c.isValid()) {
            return "content is " + c;
        }
        long expectedLsn = -1;
        if (c.version() == 0) {
            expectedLsn = 0;
        } else {
            for (int k = 0; k < count; k++) {
                if (versions[k] == c.version()) {
                    expectedLsn = lsns[k];
                }
            }
            if (expectedLsn < 0) {
                return "holds " + c + ", a version the writer never wrote to this page (or not before its last"
                        + " announced round)";
            }
        }
        if (c.lsn() != expectedLsn) {
            return "holds " + c + ", but that version was written with lsn " + expectedLsn;
        }
        if (c.version() < durableVersion) {
            return "holds " + c + ", OLDER than version " + durableVersion + " that the last checkpoint/flush"
                    + " made durable";
        }
        if (pageLsn != c.lsn()) {
            return "holds " + c + ", but Page.lsn() says " + pageLsn;
        }
        if (c.lsn() > walDurable) {
            return "holds " + c + ", but the WAL hook was only asked to make the log durable up to lsn " + walDurable;
        }
        return null;
    }

    private static String expectation(long[] versions, int count, long durableVersion) {
        long newest = count == 0 ? 0 : versions[count - 1];
        return " (expected a version from " + durableVersion + " to " + newest + "; written versions "
                + (count > 20 ? "..., " : "")
                + (count == 0 ? "none" : Arrays.toString(Arrays.copyOfRange(versions, Math.max(0, count - 20), count)))
                + ")";
    }
}
