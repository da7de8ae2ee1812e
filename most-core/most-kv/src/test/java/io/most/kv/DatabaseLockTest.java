package io.most.kv;

import static io.most.kv.TestDatabases.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.Page;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.device.DirectFileDevice;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database is open at most once: its lock file ({@code wal.log.lock}) is held for its life, and a
 * second open is refused before it reads or writes anything. Also: a meta page of another format is
 * named as such. (Another process's open is refused the same way: src-test's
 * {@code KvLockAcrossProcessesTest}.)
 */
class DatabaseLockTest {
    @TempDir
    Path dir;

    @Test
    void aSecondOpenIsRefusedAndTheFirstWorksOn() {
        try (KvDatabase first = TestDatabases.open(dir)) {
            first.put(bytes("a"), bytes("1"));
            // refused by whichever lock comes first: the page store's device file (opened by the caller)
            // or, for a database whose files are not locked by a device, the log's lock file
            io.most.errors.MostException e = assertThrows(io.most.errors.MostException.class, () -> TestDatabases.open(dir).close());
            assertTrue(e instanceof DatabaseInUseException || e instanceof io.most.errors.FileInUseException, e.toString());
            assertTrue(e.getMessage().contains("pid " + ProcessHandle.current().pid())
                    || e.getMessage().contains("process " + ProcessHandle.current().pid()), e.getMessage());
            first.put(bytes("b"), bytes("2"));
            assertArrayEquals(bytes("1"), first.get(bytes("a")));
        }
        // closed: the lock is released
        try (KvDatabase again = TestDatabases.open(dir)) {
            assertArrayEquals(bytes("1"), again.get(bytes("a")));
            assertArrayEquals(bytes("2"), again.get(bytes("b")));
        }
    }

    @Test
    void aFailedOpenReleasesTheLock() {
        TestDatabases.open(dir).close();
        KvOptions wrongPageSize = TestDatabases.small(dir).pageSize(8192).build();
        assertThrows(RuntimeException.class, () -> KvDatabase.open(wrongPageSize).close());
        TestDatabases.open(dir).close(); // not locked by the failed attempt
    }

    @Test
    void aMetaPageOfAnotherFormatIsNamed() {
        TestDatabases.open(dir).close();
        try (PageStore store = PageStore.open(PageStoreConfig.builder().pageSize(4096).dramBytes(64 * 4096)
                .blockDevice(DirectFileDevice.open(dir.resolve("data.most"), 64L << 20)).build());
             Page meta = store.write(MetaPage.PAGE)) {
            meta.payload().set(ValueLayout.JAVA_LONG_UNALIGNED, 8, MetaPage.MAGIC + 1); // "MOSTKV03"
            meta.markDirty(meta.lsn());
        }
        LogMismatchException e = assertThrows(LogMismatchException.class, () -> TestDatabases.open(dir).close());
        assertTrue(e.getMessage().contains("format 03") && e.getMessage().contains("reads formats 01 and 02"), e.getMessage());
    }
}
