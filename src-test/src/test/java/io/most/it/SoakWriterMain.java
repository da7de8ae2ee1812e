package io.most.it;

import io.most.errors.CorruptPageException;
import io.most.errors.MostException;
import io.most.Page;
import io.most.PageStore;
import io.most.tier.TieredVolume;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * The child of {@link RandomCrashSoakTest}: opens (recovering) one {@link SoakKind} store, reports
 * what every page holds, then performs random operations until it is killed, announcing each one.
 * It knows nothing of kill points: the parent kills it at random moments.
 *
 * <p>Arguments: {@code <kind> <dir> <seed> <run id> <first version>}. Versions are unique over the
 * whole soak (the parent passes one above every version printed so far); version {@code v} of a page
 * is written with LSN {@code v}. Protocol on standard output, one line per write:
 * <ul>
 *   <li>{@code OPENING} before the open (the recovery), {@code OPEN <page capacity>} after it returned;</li>
 *   <li>{@code R <id> FREE | V <version> <lsn> <Page.lsn()> | CORRUPT <msg> | BAD <what> | ERR <exception>}:
 *       what the reopened store holds for page (or volume block) {@code id}, one line per page id
 *       ({@link #scan}); then {@code SCANNED};</li>
 *   <li>{@code ALLOC} before {@code allocate()}, {@code A <id>} after it returned;</li>
 *   <li>{@code W <id> <version>} before writing that version;</li>
 *   <li>{@code F <id>} before {@code free(id)};</li>
 *   <li>{@code FLUSH} / {@code FLUSHED} around {@code flush()} (the volume's {@code force()}),
 *       {@code CKPT} / {@code CKPTED} around {@code checkpoint()};</li>
 *   <li>{@code BAD <id> <what>} if a page the writer reads or is about to overwrite does not hold its
 *       newest version (a wrong read while running); {@code ERR <what>} if an operation threw.</li>
 * </ul>
 */
public final class SoakWriterMain {
    private static final long MAX_RUN_NANOS = 60_000_000_000L;
    static final int ERR_EXIT = 5;

    private SoakWriterMain() {
    }

    public static void main(String[] args) {
        ForkedJvm.exitWhenParentDies();
        SoakKind kind = SoakKind.valueOf(args[0]);
        Path dir = Path.of(args[1]);
        SplittableRandom random = new SplittableRandom(Long.parseLong(args[2]));
        long run = Long.parseLong(args[3]);
        long version = Long.parseLong(args[4]);
        ForkedJvm.LineWriter out = ForkedJvm.lineWriter();
        try {
            out.println("OPENING");
            if (kind.isPageStore()) {
                try (PageStore store = kind.openStore(dir)) {
                    out.println("OPEN " + store.pageCapacity());
                    long[] state = scan(store, run, out::println);
                    out.println("SCANNED");
                    runStore(store, state, kind.units(), random, run, version, out);
                }
            } else {
                try (TieredVolume volume = SoakKind.openVolume(dir); Arena arena = Arena.ofConfined()) {
                    out.println("OPEN " + kind.units());
                    MemorySegment block = volume.allocate(arena, SoakKind.PAGE);
                    long[] state = scan(volume, kind.units(), block, run, out::println);
                    out.println("SCANNED");
                    runVolume(volume, block, state, random, run, version, out);
                }
            }
        } catch (RuntimeException | Error e) {
            e.printStackTrace();
            out.println("ERR " + oneLine(e));
            Runtime.getRuntime().halt(ERR_EXIT);
        }
        System.err.println("SoakWriterMain ran out of time without being killed");
        System.exit(2);
    }

    /** State of a page in {@link #scan}'s result: free, or not usable (corrupt or wrong). */
    static final long FREE = -1;
    static final long UNUSABLE = -2;

    /**
     * Reads every allocated page of {@code store} and reports it to {@code report} as an {@code R}
     * line; returns per page id the version found (0 = zeros), {@link #FREE} or {@link #UNUSABLE}.
     */
    static long[] scan(PageStore store, long run, Consumer<String> report) {
        long[] state = new long[Math.toIntExact(store.pageCapacity())];
        for (int id = 0; id < state.length; id++) {
            if (!store.isAllocated(id)) {
                state[id] = FREE;
                report.accept("R " + id + " FREE");
                continue;
            }
            String line;
            try (Page page = store.read(id)) {
                VersionedPage.Content c = VersionedPage.inspect(page.payload(), run, id);
                state[id] = c.isValid() ? c.version() : UNUSABLE;
                line = c.isValid() ? "V " + c.version() + " " + c.lsn() + " " + page.lsn() : "BAD " + c;
            } catch (CorruptPageException e) {
                state[id] = UNUSABLE;
                line = "CORRUPT " + oneLine(e);
            } catch (RuntimeException e) {
                state[id] = UNUSABLE;
                line = "ERR " + oneLine(e);
            }
            report.accept("R " + id + " " + line);
        }
        return state;
    }

    /** {@link #scan(PageStore, long, Consumer)} for the first {@code blocks} blocks of a volume (LSN = version). */
    static long[] scan(TieredVolume volume, int blocks, MemorySegment block, long run, Consumer<String> report) {
        long[] state = new long[blocks];
        for (int b = 0; b < blocks; b++) {
            String line;
            try {
                volume.read((long) b * SoakKind.PAGE, block);
                VersionedPage.Content c = VersionedPage.inspect(block, run, b);
                state[b] = c.isValid() ? c.version() : UNUSABLE;
                line = c.isValid() ? "V " + c.version() + " " + c.lsn() + " " + c.lsn() : "BAD " + c;
            } catch (RuntimeException e) {
                state[b] = UNUSABLE;
                line = "ERR " + oneLine(e);
            }
            report.accept("R " + b + " " + line);
        }
        return state;
    }

    private static void runStore(PageStore store, long[] state, int units, SplittableRandom random, long run,
                                 long firstVersion, ForkedJvm.LineWriter out) {
        List<Integer> allocated = new ArrayList<>();
        for (int id = 0; id < state.length; id++) {
            if (state[id] >= 0) {
                allocated.add(id);
            }
        }
        long version = firstVersion;
        long start = System.nanoTime();
        while (System.nanoTime() - start < MAX_RUN_NANOS) {
            int op = random.nextInt(100);
            if (allocated.isEmpty() || (op < 12 && allocated.size() < units)) {
                out.println("ALLOC");
                long id = store.allocate();
                out.println("A " + id);
                state[(int) id] = 0;
                allocated.add((int) id);
            } else if (op < 17) {
                int id = allocated.remove(random.nextInt(allocated.size()));
                out.println("F " + id);
                store.free(id);
                state[id] = FREE;
            } else if (op < 60) {
                int id = pick(allocated, random);
                long v = version++;
                out.println("W " + id + " " + v);
                try (Page page = store.write(id)) {
                    check(out, "before writing", id, VersionedPage.inspect(page.payload(), run, id), page.lsn(),
                            state[id]);
                    VersionedPage.stamp(page.payload(), run, id, v, v);
                    page.markDirty(v);
                }
                state[id] = v;
            } else if (op < 96) {
                int id = pick(allocated, random);
                if ((op & 1) == 0) {
                    try (Page page = store.read(id)) {
                        check(out, "reading", id, VersionedPage.inspect(page.payload(), run, id), page.lsn(), state[id]);
                    }
                } else {
                    VersionedPage.Content c = store.readOptimistic(id, p -> VersionedPage.inspect(p, run, id));
                    check(out, "reading optimistically", id, c, c.lsn(), state[id]);
                }
            } else if (op < 98) {
                out.println("FLUSH");
                store.flush();
                out.println("FLUSHED");
            } else {
                out.println("CKPT");
                store.checkpoint();
                out.println("CKPTED");
            }
        }
    }

    private static void runVolume(TieredVolume volume, MemorySegment block, long[] state, SplittableRandom random,
                                  long run, long firstVersion, ForkedJvm.LineWriter out) {
        long version = firstVersion;
        List<Integer> usable = new ArrayList<>();
        for (int b = 0; b < state.length; b++) {
            if (state[b] >= 0) {
                usable.add(b);
            }
        }
        long start = System.nanoTime();
        while (System.nanoTime() - start < MAX_RUN_NANOS && !usable.isEmpty()) {
            int op = random.nextInt(100);
            int b = pick(usable, random);
            long offset = (long) b * SoakKind.PAGE;
            if (op < 50) {
                long v = version++;
                out.println("W " + b + " " + v);
                VersionedPage.stamp(block, run, b, v, v);
                volume.write(offset, block);
                state[b] = v;
            } else if (op < 96) {
                volume.read(offset, block);
                VersionedPage.Content c = VersionedPage.inspect(block, run, b);
                check(out, "reading", b, c, c.lsn(), state[b]);
            } else {
                out.println("FLUSH");
                volume.force();
                out.println("FLUSHED");
            }
        }
    }

    /** Three picks in four go to the first eighth of the pages in use: a hot set that stays in DRAM or PM. */
    private static int pick(List<Integer> ids, SplittableRandom random) {
        int n = ids.size();
        int hot = Math.max(1, n / 8);
        return ids.get(random.nextInt(4) < 3 ? random.nextInt(hot) : random.nextInt(n));
    }

    private static void check(ForkedJvm.LineWriter out, String what, int id, VersionedPage.Content c, long pageLsn,
                              long expected) {
        if (!c.isValid() || c.version() != expected || c.lsn() != pageLsn) {
            out.println("BAD " + id + " " + what + " found " + c + " with Page.lsn() " + pageLsn + ", expected version "
                    + expected);
            Runtime.getRuntime().halt(ERR_EXIT);
        }
    }

    static String oneLine(Throwable e) {
        String text = e instanceof MostException ? e.getClass().getSimpleName() + ": " + e.getMessage() : e.toString();
        return text.replace('\n', ' ');
    }
}
