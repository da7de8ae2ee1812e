package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.MigrationPolicy;
import io.most.Page;
import io.most.PageStore;
import io.most.PageStoreStats;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PageStoreBasicsTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"eager", "lazy", "hymem"})
    void pagesRoundTripThroughEveryTierAndSurviveReopen(String policy) {
        List<Long> ids = new ArrayList<>();
        try (PageStore store = StoreFixture.open(dir, 400, 16, 32, MigrationPolicy.named(policy))) {
            assertEquals(4096 - 32, store.payloadSize());
            for (int i = 0; i < 300; i++) {
                long id = store.allocate();
                ids.add(id);
                try (Page page = store.write(id)) {
                    StoreFixture.stamp(page.payload(), id, 1);
                    page.markDirty(i + 1);
                }
            }
            // 300 pages through 16 DRAM + 32 PM frames: most now live on SSD
            for (long id : ids) {
                try (Page page = store.read(id)) {
                    assertEquals(1, StoreFixture.versionOf(page.payload(), id), "page " + id);
                }
            }
            for (long id : ids) {
                assertEquals(1L, (long) store.readOptimistic(id, p -> StoreFixture.versionOf(p, id)));
            }
            PageStoreStats s = store.stats();
            assertTrue(s.ssdWrites() > 0 && s.ssdReads() > 0, s.toString());
            assertEquals(300, s.allocatedPages());
        }
        try (PageStore store = StoreFixture.open(dir, 400, 16, 32, MigrationPolicy.named(policy))) {
            for (long id : ids) {
                assertTrue(store.isAllocated(id));
                try (Page page = store.read(id)) {
                    assertEquals(1, StoreFixture.versionOf(page.payload(), id), "page " + id + " after reopen");
                }
            }
        }
    }

    @Test
    void dramOnlyHierarchyWorks() {
        try (PageStore store = StoreFixture.open(dir, 200, 16, 0, MigrationPolicy.eager())) {
            long[] ids = new long[100];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = store.allocate();
                try (Page page = store.write(ids[i])) {
                    page.payload().set(ValueLayout.JAVA_INT, 0, i);
                    page.markDirty(1);
                }
            }
            for (int i = 0; i < ids.length; i++) {
                try (Page page = store.read(ids[i])) {
                    assertEquals(i, page.payload().get(ValueLayout.JAVA_INT, 0));
                }
            }
            assertEquals(0, store.stats().pmHits());
        }
    }

    @Test
    void newPagesReadAsZerosAndFreedPagesAreRejected() {
        try (PageStore store = StoreFixture.open(dir, 100, 16, 16, MigrationPolicy.lazy())) {
            long id = store.allocate();
            try (Page page = store.read(id)) {
                assertEquals(-1, page.payload().mismatch(java.lang.foreign.MemorySegment.ofArray(new byte[store.payloadSize()])));
                assertThrows(IllegalStateException.class, () -> page.markDirty(1));
                assertThrows(IllegalArgumentException.class, () -> page.payload().set(ValueLayout.JAVA_INT, 0, 1)); // read-only
            }
            store.free(id);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> store.read(id));
            assertTrue(e.getMessage().contains("not allocated"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> store.free(id));
            assertThrows(IllegalArgumentException.class, () -> store.write(-1));
        }
    }

    @Test
    void aChosenPageIdCanBeAllocatedForRecoveryAndSurvivesReopen() {
        try (PageStore store = StoreFixture.open(dir, 100, 16, 16, MigrationPolicy.lazy())) {
            store.allocate(42);
            assertTrue(store.isAllocated(42));
            try (Page page = store.write(42)) {
                assertEquals(-1, page.payload().mismatch(java.lang.foreign.MemorySegment.ofArray(new byte[store.payloadSize()])));
                StoreFixture.stamp(page.payload(), 42, 3);
                page.markDirty(1);
            }
            IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> store.allocate(42));
            assertTrue(twice.getMessage().contains("allocated already"), twice.getMessage());
            IllegalArgumentException outside = assertThrows(IllegalArgumentException.class,
                    () -> store.allocate(store.pageCapacity()));
            assertTrue(outside.getMessage().contains("outside"), outside.getMessage());
            assertEquals(1, store.stats().allocatedPages(), "a refused allocation changes nothing");
            long next = store.allocate();
            assertTrue(next != 42, "allocate() skips the chosen id");
        }
        try (PageStore store = StoreFixture.open(dir, 100, 16, 16, MigrationPolicy.lazy())) {
            try (Page page = store.read(42)) {
                assertEquals(3, StoreFixture.versionOf(page.payload(), 42));
            }
        }
    }
}
