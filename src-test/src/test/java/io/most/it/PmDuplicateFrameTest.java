package io.most.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.MigrationPolicy;
import io.most.PageStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PM recovery when two valid frames hold the same page: the state a kill leaves between the two steps
 * of an out-of-place PM update (the new frame is sealed and persisted, the old one not yet
 * invalidated). The frame with the higher write sequence is the newer version and must win, whichever
 * of the two frames comes first in the file.
 *
 * <p>The state is made deterministically: write version 1 of a page to PM (eager policy, flush), then
 * a version that changes the whole page (which goes to a new frame and invalidates the old one by
 * clearing its magic), close, and restore the old frame's magic: its checksum covers everything after
 * the magic, so it is valid again, exactly as if the kill had landed before the invalidation. Swapping the two frames' bytes in the file
 * gives the other scan order.
 *
 * <p>Both failed before the fix of SpitfireBufferManager.recoverPm, which picked the frame to keep as
 * the loser: the page stayed mapped to a freed frame, or the older version came back after a restart.
 */
class PmDuplicateFrameTest {
    private static final int PAGE = 4096;
    private static final long PAGE_ID = 3;
    /**
     * The second version of {@link #PAGE_ID}: a new group of {@link VersionedPage}'s random bytes, so
     * the whole page changes and PM writes it out of place (a version of the same group changes an
     * eighth of the lines, which PM persists in place as a line update, leaving one frame).
     */
    private static final long NEWER = 16;

    @TempDir
    Path dir;

    /** Scan meets the newer frame first: recovery discards it but keeps the page mapped to it. */
    @Test
    void newerFrameFirstInTheFileWins() {
        SmallStore store = twoValidFrames(true);
        readsTheNewerVersionAcrossTwoRestarts(store);
    }

    /** Scan meets the older frame first: recovery invalidates the newer frame's header but serves it. */
    @Test
    void olderFrameFirstInTheFileLosesAlsoAfterTheNextRestart() {
        SmallStore store = twoValidFrames(false);
        readsTheNewerVersionAcrossTwoRestarts(store);
    }

    /** Without the restored magic the same files recover fine: the control for the two tests above. */
    @Test
    void oneValidFramePerPageRecoversTheNewestVersion() {
        SmallStore store = SmallStore.withPm(dir, PAGE, 64, 32, MigrationPolicy.eager());
        writeTwoVersions(store);
        readsTheNewerVersionAcrossTwoRestarts(store);
    }

    private SmallStore twoValidFrames(boolean newerFirst) {
        SmallStore store = SmallStore.withPm(dir, PAGE, 64, 32, MigrationPolicy.eager());
        writeTwoVersions(store);
        List<StoreFiles.Image> images = StoreFiles.imagesOf(store.pm(), PAGE, PAGE_ID, true);
        assertEquals(2, images.size(), "frames of page " + PAGE_ID + " in " + store.pm() + ": " + images);
        StoreFiles.Image newer = images.stream().filter(StoreFiles.Image::isValid).findFirst().orElseThrow();
        StoreFiles.Image older = images.stream().filter(i -> !i.isValid()).findFirst().orElseThrow();
        assertTrue(older.seq() < newer.seq(), "write sequences: " + images);
        StoreFiles.writeInt(store.pm(), older.offset(), StoreFiles.PAGE_MAGIC); // the invalidation never happened
        if ((newer.offset() < older.offset()) != newerFirst) {
            byte[] a = StoreFiles.read(store.pm(), newer.offset(), PAGE);
            byte[] b = StoreFiles.read(store.pm(), older.offset(), PAGE);
            StoreFiles.write(store.pm(), newer.offset(), b);
            StoreFiles.write(store.pm(), older.offset(), a);
        }
        List<StoreFiles.Image> now = StoreFiles.imagesOf(store.pm(), PAGE, PAGE_ID, false);
        assertEquals(2, now.size(), "valid frames of page " + PAGE_ID + " after restoring the magic: " + now);
        assertEquals(newerFirst, now.get(0).seq() > now.get(1).seq(), "frame order: " + now);
        return store;
    }

    /** Version 1 of every page in PM, then version {@link #NEWER} of {@link #PAGE_ID} in a new frame. */
    private static void writeTwoVersions(SmallStore store) {
        try (PageStore s = store.open()) {
            for (int i = 0; i < 8; i++) {
                s.allocate();
            }
            for (int i = 0; i < 8; i++) {
                SmallStore.write(s, i, 1);
            }
            s.flush();
            SmallStore.write(s, PAGE_ID, NEWER);
            s.flush();
            assertEquals(0, s.stats().ssdWrites(), "eager with room in PM writes no data page to the SSD");
        }
    }

    private static void readsTheNewerVersionAcrossTwoRestarts(SmallStore store) {
        AtomicReference<String> doing = new AtomicReference<>("reopening");
        Liveness.call("[two valid PM frames]", Duration.ofSeconds(30), doing, () -> {
            for (int restart = 1; restart <= 2; restart++) {
                try (PageStore s = store.open()) {
                    doing.set("reading page " + PAGE_ID + " after restart " + restart);
                    SmallStore.assertVersion(s, PAGE_ID, NEWER, "after restart " + restart);
                    for (int i = 0; i < 8; i++) {
                        doing.set("reading page " + i + " after restart " + restart);
                        SmallStore.assertVersion(s, i, i == PAGE_ID ? NEWER : 1, "after restart " + restart);
                    }
                }
                doing.set("closing and reopening");
            }
            return null;
        });
    }
}
