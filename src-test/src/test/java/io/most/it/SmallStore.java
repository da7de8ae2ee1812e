package io.most.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.MigrationPolicy;
import io.most.Page;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.device.DirectFileDevice;
import java.nio.file.Path;

/**
 * A small store on real files for the in-process integration tests (corruption, configuration
 * mismatches, PM recovery corner cases), holding {@link VersionedPage}s of run {@link #RUN}.
 *
 * @param ssd      the block device's file
 * @param pm       the PM file, or null for a DRAM-SSD store
 * @param pageSize bytes per page
 * @param pages    page ids on the block device
 */
record SmallStore(Path ssd, Path pm, int pageSize, int pages, int dramFrames, int pmFrames, MigrationPolicy policy) {
    static final long RUN = 0x5EED_C0DEL;

    static SmallStore dramSsd(Path dir, int pageSize, int pages) {
        return new SmallStore(dir.resolve("ssd.dat"), null, pageSize, pages, 16, 0, MigrationPolicy.lazy());
    }

    static SmallStore withPm(Path dir, int pageSize, int pages, int pmFrames, MigrationPolicy policy) {
        return new SmallStore(dir.resolve("ssd.dat"), dir.resolve("pm.dat"), pageSize, pages, 16, pmFrames, policy);
    }

    SmallStore withPmFile(Path pmFile, int frames) {
        return new SmallStore(ssd, pmFile, pageSize, pages, dramFrames, frames, policy);
    }

    SmallStore withoutPm() {
        return new SmallStore(ssd, null, pageSize, pages, dramFrames, 0, policy);
    }

    SmallStore withSsdFile(Path ssdFile) {
        return new SmallStore(ssdFile, pm, pageSize, pages, dramFrames, pmFrames, policy);
    }

    SmallStore withPageSize(int size) {
        return new SmallStore(ssd, pm, size, pages, dramFrames, pmFrames, policy);
    }

    /** Bytes of the block device: the pages plus two superblocks and two one-page bitmaps. */
    long ssdBytes() {
        return PageStore.blockDeviceBytesFor(pages, pageSize);
    }

    long pmBytes() {
        return (long) (pmFrames + 1) * pageSize;
    }

    PageStoreConfig config() {
        PageStoreConfig.Builder b = PageStoreConfig.builder()
                .pageSize(pageSize)
                .blockDevice(DirectFileDevice.open(ssd, ssdBytes()))
                .dramBytes((long) dramFrames * pageSize)
                .policy(policy);
        if (pm != null) {
            b.pm(pm, pmBytes());
        }
        return b.build();
    }

    PageStore open() {
        return PageStore.open(config());
    }

    /** Writes {@code version} of {@code pageId} (LSN = version). */
    static void write(PageStore store, long pageId, long version) {
        try (Page page = store.write(pageId)) {
            VersionedPage.stamp(page.payload(), RUN, pageId, version, version);
            page.markDirty(version);
        }
    }

    /** The version {@code pageId} holds; fails if its content is not a whole version. */
    static long versionOf(PageStore store, long pageId) {
        try (Page page = store.read(pageId)) {
            VersionedPage.Content content = VersionedPage.inspect(page.payload(), RUN, pageId);
            assertTrue(content.isValid(), "page " + pageId + " holds " + content);
            return content.version();
        }
    }

    /** Asserts that {@code pageId} holds exactly {@code version}. */
    static void assertVersion(PageStore store, long pageId, long version, String what) {
        assertEquals(version, versionOf(store, pageId), what + ": version of page " + pageId);
    }
}
