package io.most.it;

import io.most.Page;
import io.most.PageStore;
import io.most.WalHook;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The child of {@link PageStoreCrashTest} and {@link PmRecoveryTest}: opens a page store as its
 * {@link CrashStoreSpec} says, allocates the spec's pages, and then writes rounds of
 * {@link VersionedPage}s by the {@link WriteSchedule} until it is killed.
 *
 * <p>Arguments: {@link CrashStoreSpec#toArgs}. Protocol on standard output, one line each:
 * <ul>
 *   <li>{@code READY} once the store is open;</li>
 *   <li>{@code ALLOCATED <n>} after every 100th allocation and the last;</li>
 *   <li>{@code CHECKPOINT 0} after {@code checkpoint()} returned following the allocations;</li>
 *   <li>{@code ROUND <r>} before the first write of round {@code r} (from 1): so the parent knows that
 *       no version newer than the last announced round was ever written;</li>
 *   <li>{@code CHECKPOINT <r>} (or {@code FLUSHED <r>} with {@code flushOnly}) after {@code checkpoint()}
 *       (or {@code flush()}) returned following round {@code r}: every page is durable at its version
 *       of round {@code r} at least;</li>
 *   <li>{@code PARKED} after the durable line of round {@link CrashStoreSpec#parkAfterRound()}, if set:
 *       the writer then does nothing until it is killed.</li>
 * </ul>
 * In round {@code r} each page of {@link WriteSchedule#writes(int)} gets version {@code r}, marked
 * dirty with the next LSN (1, 2, ...); then the pages of {@link WriteSchedule#reads(int)} are read,
 * alternately latched and optimistically. Every page the writer touches is first checked to hold
 * exactly its newest version and LSN: a mismatch prints {@code FAIL <what>} and exits with status 5.
 *
 * <p>The WAL hook stands in for a log: asked to flush up to {@code L}, it checks that {@code L} was
 * issued (else prints {@code WAL-BEYOND-ISSUED <L> <issued>} and exits with status 4), then "makes
 * durable" everything issued so far by writing that LSN into {@value CrashStoreSpec#WAL_FILE} (a
 * plain write: it survives a process kill), which the parent reads after the kill.
 */
public final class PageStoreWriterMain {
    private static final long MAX_RUN_NANOS = 60_000_000_000L;
    static final int FAIL_EXIT = 5;
    static final int WAL_EXIT = 4;

    private PageStoreWriterMain() {
    }

    public static void main(String[] args) {
        ForkedJvm.exitWhenParentDies();
        Path dir = Path.of(args[0]);
        CrashStoreSpec spec = CrashStoreSpec.fromArgs(args);
        ForkedJvm.LineWriter out = ForkedJvm.lineWriter();
        WriteSchedule schedule = spec.schedule();
        long[] version = new long[spec.pages()];
        long[] lsnOf = new long[spec.pages()];
        long start = System.nanoTime();
        try (TestWal wal = new TestWal(dir.resolve(CrashStoreSpec.WAL_FILE), out);
             PageStore store = PageStore.open(spec.config(dir, wal))) {
            out.println("READY");
            for (int i = 0; i < spec.pages(); i++) {
                long id = store.allocate();
                if (id != i) {
                    fail(out, "allocation " + i + " of a fresh store returned page id " + id);
                }
                if ((i + 1) % 100 == 0 || i + 1 == spec.pages()) {
                    out.println("ALLOCATED " + (i + 1));
                }
            }
            store.checkpoint();
            out.println("CHECKPOINT 0");
            for (int round = 1; System.nanoTime() - start < MAX_RUN_NANOS; round++) {
                out.println("ROUND " + round);
                for (int id : schedule.writes(round)) {
                    long lsn = wal.issue();
                    try (Page page = store.write(id)) {
                        check(out, "write", id, VersionedPage.inspect(page.payload(), spec.seed(), id), page.lsn(),
                                version[id], lsnOf[id]);
                        VersionedPage.stamp(page.payload(), spec.seed(), id, round, lsn);
                        page.markDirty(lsn);
                    }
                    version[id] = round;
                    lsnOf[id] = lsn;
                }
                boolean latched = (round & 1) == 0;
                for (int id : schedule.reads(round)) {
                    if (latched) {
                        try (Page page = store.read(id)) {
                            check(out, "read", id, VersionedPage.inspect(page.payload(), spec.seed(), id), page.lsn(),
                                    version[id], lsnOf[id]);
                        }
                    } else {
                        VersionedPage.Content content = store.readOptimistic(id,
                                payload -> VersionedPage.inspect(payload, spec.seed(), id));
                        check(out, "optimistic read", id, content, lsnOf[id], version[id], lsnOf[id]);
                    }
                }
                if (round % spec.durableEvery() == 0) {
                    if (spec.flushOnly()) {
                        store.flush();
                        out.println("FLUSHED " + round);
                    } else {
                        store.checkpoint();
                        out.println("CHECKPOINT " + round);
                    }
                    if (round == spec.parkAfterRound()) {
                        out.println("PARKED");
                        Thread.sleep(MAX_RUN_NANOS / 1_000_000);
                    }
                }
            }
        } catch (InterruptedException e) {
            fail(out, "interrupted");
        } catch (RuntimeException | Error e) {
            e.printStackTrace();
            fail(out, e.toString().replace('\n', ' '));
        }
        System.err.println("PageStoreWriterMain ran out of time without being killed");
        System.exit(2);
    }

    private static void check(ForkedJvm.LineWriter out, String what, int id, VersionedPage.Content content,
                              long pageLsn, long expectedVersion, long expectedLsn) {
        if (!content.isValid() || content.version() != expectedVersion || content.lsn() != expectedLsn
                || pageLsn != expectedLsn) {
            fail(out, what + " of page " + id + " found " + content + " with Page.lsn() " + pageLsn
                    + ", expected version " + expectedVersion + " (lsn " + expectedLsn + ")");
        }
    }

    private static void fail(ForkedJvm.LineWriter out, String message) {
        out.println("FAIL " + message);
        System.err.println("FAIL " + message);
        Runtime.getRuntime().halt(FAIL_EXIT);
    }

    /** A stand-in write-ahead log: see the class comment. */
    static final class TestWal implements WalHook, AutoCloseable {
        private final AtomicLong issued = new AtomicLong();
        private final FileChannel file;
        private final ForkedJvm.LineWriter out;
        private final ByteBuffer buffer = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        private long durable; // guarded by this

        TestWal(Path path, ForkedJvm.LineWriter out) {
            this.out = out;
            try {
                this.file = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The next LSN. */
        long issue() {
            return issued.incrementAndGet();
        }

        @Override
        public synchronized void flushUpTo(long lsn) {
            long now = issued.get();
            if (lsn > now) {
                out.println("WAL-BEYOND-ISSUED " + lsn + " " + now);
                Runtime.getRuntime().halt(WAL_EXIT);
            }
            if (lsn > durable) {
                durable = now;
                buffer.clear().putLong(0, now);
                try {
                    file.write(buffer, 0);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }

        /** The durable LSN recorded in {@code path} by a (killed) writer; 0 if it never flushed. */
        static long durableLsn(Path path) throws IOException {
            if (!java.nio.file.Files.exists(path)) {
                return 0;
            }
            byte[] bytes = java.nio.file.Files.readAllBytes(path);
            return bytes.length < Long.BYTES ? 0 : ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getLong(0);
        }

        @Override
        public void close() {
            try {
                file.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
