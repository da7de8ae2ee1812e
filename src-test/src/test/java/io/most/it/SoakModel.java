package io.most.it;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The test's model of a store under {@link SoakWriterMain}, built only from the writers' transcripts:
 * per page id, the state the last acknowledged durable point guarantees and the states it may have
 * reached since, and the tally of what reopened stores served against it.
 *
 * <p>A state is {@link SoakWriterMain#FREE} or a version ({@code 0} = allocated, all zeros). What a
 * call acknowledges follows the {@link io.most.PageStore} javadoc:
 * <ul>
 *   <li>{@code checkpoint()} returned: every page is durable in its current state (allocation and
 *       frees included);</li>
 *   <li>{@code flush()} returned (or the volume's {@code force()}): every page written since the last
 *       acknowledgement is durable at its current version, and allocated (an allocation is durable
 *       before its page first reaches PM or the block device); frees and unwritten allocations are
 *       not acknowledged;</li>
 * </ul>
 * After a crash a page may hold its acknowledged state or any state it reached after it (the
 * operation announced last may or may not have happened; an {@code ALLOC} without its {@code A}
 * line may have allocated any free page). Anything else is counted:
 * <ul>
 *   <li><b>lost</b>: free, older than acknowledged, or reported corrupt, while an acknowledged version
 *       exists;</li>
 *   <li><b>wrong</b>: a version never written to that page or older than what was acknowledged
 *       free, bytes that are no whole version (a silent wrong read), an allocated page the store
 *       should not have;</li>
 *   <li><b>failed</b>: an open, read or write that threw anything but {@code CorruptPageException} for a page read;</li>
 *   <li><b>corrupt</b>: a {@code CorruptPageException} for a page with no acknowledged version (reported,
 *       not returned: allowed, but tallied).</li>
 * </ul>
 */
final class SoakModel {
    private static final int MAX_PROBLEMS = 30;

    private final Map<Integer, Long> acked = new HashMap<>();
    private final Map<Integer, Set<Long>> since = new HashMap<>();
    private final Map<Integer, Long> current = new HashMap<>();
    private final Set<Integer> writtenSinceAck = new HashSet<>();
    private final boolean allAllocated;
    private long maxVersion;
    /** An {@code ALLOC} line without its {@code A}: until the next complete scan, any free page may be allocated. */
    private boolean pendingAlloc;

    int lost;
    int wrong;
    int failed;
    int corrupt;
    int pagesJudged;
    final List<String> problems = new ArrayList<>();

    /** @param allAllocated true for a bare volume: every block exists and starts as zeros */
    SoakModel(boolean allAllocated) {
        this.allAllocated = allAllocated;
    }

    /** One above every version any writer announced: the next writer's first version. */
    long nextVersion() {
        return maxVersion + 1;
    }

    private long initial() {
        return allAllocated ? 0 : SoakWriterMain.FREE;
    }

    /**
     * Applies a writer's transcript: judges every {@code R} line against the model, then follows its
     * operations. {@code where} prefixes problems.
     */
    void apply(List<String> lines, String where) {
        for (String line : lines) {
            String[] f = line.split(" ", 4);
            switch (f[0]) {
                case "OPENING", "OPEN" -> { }
                case "SCANNED" -> pendingAlloc = false;
                case "R" -> judge(Integer.parseInt(f[1]), line.substring(line.indexOf(' ', 2) + 1), where);
                case "ALLOC" -> pendingAlloc = true;
                case "A" -> {
                    pendingAlloc = false;
                    int id = Integer.parseInt(f[1]);
                    if (current(id) != SoakWriterMain.FREE) {
                        problem(where, "allocate() returned page " + id + ", which is allocated (state " + current(id) + ")");
                        wrong++;
                    }
                    reach(id, 0);
                }
                case "W" -> {
                    int id = Integer.parseInt(f[1]);
                    long v = Long.parseLong(f[2]);
                    maxVersion = Math.max(maxVersion, v);
                    reach(id, v);
                    writtenSinceAck.add(id);
                }
                case "F" -> {
                    int id = Integer.parseInt(f[1]);
                    reach(id, SoakWriterMain.FREE);
                    writtenSinceAck.remove(id);
                }
                case "FLUSH", "CKPT" -> { }
                case "FLUSHED" -> {
                    for (int id : writtenSinceAck) {
                        acked.put(id, current(id));
                        since.remove(id);
                    }
                    writtenSinceAck.clear();
                }
                case "CKPTED" -> {
                    for (Map.Entry<Integer, Long> e : current.entrySet()) {
                        acked.put(e.getKey(), e.getValue());
                    }
                    since.clear();
                    writtenSinceAck.clear();
                }
                case "BAD" -> {
                    wrong++;
                    problem(where, "the writer read a wrong page while running: " + line);
                }
                case "ERR" -> {
                    failed++;
                    problem(where, "an operation of the writer failed: " + line);
                }
                default -> throw new AssertionError(where + " unexpected line from the writer: '" + line + "'");
            }
        }
    }

    private long current(int id) {
        return current.getOrDefault(id, initial());
    }

    private void reach(int id, long state) {
        current.put(id, state);
        since.computeIfAbsent(id, k -> new HashSet<>()).add(state);
    }

    /** Marks the end of a complete scan done outside a writer (by the test itself). */
    void scanned() {
        pendingAlloc = false;
    }

    /** Judges what a reopened store served for page {@code id}; the served state becomes the current one. */
    void judge(int id, String served, String where) {
        pagesJudged++;
        long ack = acked.getOrDefault(id, initial());
        Set<Long> allowed = new HashSet<>(since.getOrDefault(id, Set.of()));
        allowed.add(ack);
        if (pendingAlloc && allowed.contains(SoakWriterMain.FREE)) {
            allowed.add(0L);
        }
        String[] f = served.split(" ");
        String verdict = null;
        long state = SoakWriterMain.UNUSABLE;
        switch (f[0]) {
            case "FREE" -> {
                state = SoakWriterMain.FREE;
                if (!allowed.contains(state)) {
                    lost++;
                    verdict = "LOST: not allocated after the crash, but version " + ack + " was acknowledged";
                }
            }
            case "V" -> {
                long v = Long.parseLong(f[1]);
                long lsn = Long.parseLong(f[2]);
                long pageLsn = Long.parseLong(f[3]);
                state = v;
                if (lsn != v || pageLsn != v) {
                    wrong++;
                    verdict = "WRONG: version " + v + " with lsn " + lsn + " in the bytes and Page.lsn() " + pageLsn;
                } else if (!allowed.contains(v)) {
                    boolean older = ack >= 0 && v < ack;
                    if (older) {
                        lost++;
                    } else {
                        wrong++;
                    }
                    verdict = (older ? "LOST: rolled back to version " : "WRONG: served version ") + v;
                }
            }
            case "CORRUPT" -> {
                if (ack >= 0) {
                    lost++;
                    verdict = "LOST (reported corrupt): " + served;
                } else {
                    corrupt++;
                }
            }
            case "BAD" -> {
                wrong++;
                verdict = "WRONG (silently served bytes that are no whole version): " + served;
            }
            default -> {
                failed++;
                verdict = "FAILED (not CorruptPageException): " + served;
            }
        }
        if (verdict != null) {
            problem(where, "page " + id + ": " + verdict + "; acknowledged " + describe(ack) + ", reached since "
                    + since.getOrDefault(id, Set.of()));
        }
        // the writer goes on from what it read; what the next crash may show stays as wide as before
        if (state != SoakWriterMain.UNUSABLE) {
            current.put(id, state);
            since.computeIfAbsent(id, k -> new HashSet<>()).add(state);
        }
    }

    private static String describe(long state) {
        return state == SoakWriterMain.FREE ? "FREE" : "version " + state;
    }

    private void problem(String where, String what) {
        if (problems.size() < MAX_PROBLEMS) {
            problems.add(where + " " + what);
        }
    }

    /** The tally in one line. */
    String tally() {
        return pagesJudged + " page reads judged: " + lost + " lost acknowledged, " + wrong + " silent wrong, "
                + failed + " failed operations, " + corrupt + " reported corrupt (unacknowledged)";
    }
}
