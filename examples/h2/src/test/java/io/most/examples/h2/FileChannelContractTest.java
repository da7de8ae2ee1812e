package io.most.examples.h2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileNotFoundException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.h2.store.fs.FilePath;
import org.h2.store.fs.FileUtils;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The FileChannel contract H2 relies on, checked through H2's own {@link FilePath} entry point on each
 * backing: random unaligned reads, writes and truncations against an in-memory model, reads past the
 * end, truncate then grow, size, concurrent positional reads, locks, and durability across a reopen.
 */
class FileChannelContractTest {
    @TempDir
    Path dir;

    private MostVolume mount(Backing backing, String mount) {
        MostVolume volume = backing.open(dir.resolve("fs.most"));
        MostFileSystem.mount(mount, volume);
        return volume;
    }

    @ParameterizedTest
    @EnumSource(Backing.class)
    void randomUnalignedOperationsMatchAModelAndSurviveReopen(Backing backing) throws Exception {
        String mount = "/model-" + backing;
        String file = "most:" + mount + "/data.bin";
        SplittableRandom random = new SplittableRandom(42);
        byte[] model = new byte[0];
        try (MostVolume volume = mount(backing, mount); FileChannel ch = FilePath.get(file).open("rw")) {
            for (int op = 0; op < 400; op++) {
                int kind = random.nextInt(10);
                if (kind < 6) {
                    int pos = random.nextInt(model.length + 40_000);
                    byte[] bytes = new byte[1 + random.nextInt(random.nextBoolean() ? 100 : 50_000)];
                    random.nextBytes(bytes);
                    assertEquals(bytes.length, ch.write(ByteBuffer.wrap(bytes), pos));
                    model = Arrays.copyOf(model, Math.max(model.length, pos + bytes.length));
                    System.arraycopy(bytes, 0, model, pos, bytes.length);
                } else if (kind < 8) {
                    int pos = random.nextInt(model.length + 10);
                    int len = 1 + random.nextInt(30_000);
                    ByteBuffer dst = ByteBuffer.allocate(len);
                    int n = ch.read(dst, pos);
                    if (pos >= model.length) {
                        assertEquals(-1, n, "read at " + pos + " of a " + model.length + "-byte file");
                    } else {
                        assertEquals(Math.min(len, model.length - pos), n, "short read at the end");
                        assertArrayEquals(Arrays.copyOfRange(model, pos, pos + n), Arrays.copyOf(dst.array(), n),
                                "bytes at " + pos + " after op " + op);
                    }
                } else if (kind == 8) {
                    int size = random.nextInt(model.length + 1);
                    ch.truncate(size);
                    model = Arrays.copyOf(model, size);
                } else {
                    ch.force(true);
                }
                assertEquals(model.length, ch.size(), "size after op " + op);
            }
            ch.force(true);
        }
        try (MostVolume volume = mount(backing, mount); FileChannel ch = FilePath.get(file).open("r")) {
            assertEquals(model.length, ch.size());
            ByteBuffer all = ByteBuffer.allocate(model.length);
            while (all.hasRemaining() && ch.read(all, all.position()) > 0) {
                // read fully
            }
            assertArrayEquals(model, all.array(), "the file after close and reopen");
        }
    }

    @ParameterizedTest
    @EnumSource(Backing.class)
    void endOfFileTruncateAndGrowAndEmptyBuffers(Backing backing) throws Exception {
        String mount = "/edges-" + backing;
        try (MostVolume volume = mount(backing, mount);
             FileChannel ch = FilePath.get("most:" + mount + "/f").open("rw")) {
            assertEquals(0, ch.size());
            assertEquals(-1, ch.read(ByteBuffer.allocate(10), 0), "empty file");
            assertEquals(0, ch.read(ByteBuffer.allocate(0), 0), "no room to read: 0, not -1");
            byte[] ones = new byte[10_000];
            Arrays.fill(ones, (byte) 1);
            ch.write(ByteBuffer.wrap(ones), 3);
            assertEquals(10_003, ch.size());
            ByteBuffer head = ByteBuffer.allocate(5);
            assertEquals(5, ch.read(head, 0));
            assertArrayEquals(new byte[] {0, 0, 0, 1, 1}, head.array(), "the unwritten start reads as zeros");
            ByteBuffer tail = ByteBuffer.allocate(100);
            assertEquals(3, ch.read(tail, 10_000), "a read over the end is short");
            assertEquals(-1, ch.read(ByteBuffer.allocate(1), 10_003));

            ch.truncate(20_000);
            assertEquals(10_003, ch.size(), "truncate to a larger size does not grow the file");
            ch.truncate(5);
            assertEquals(5, ch.size());
            ch.write(ByteBuffer.wrap(new byte[] {9}), 70_000);
            assertEquals(70_001, ch.size());
            ByteBuffer grown = ByteBuffer.allocate(70_001);
            assertEquals(70_001, ch.read(grown, 0));
            byte[] expected = new byte[70_001];
            expected[3] = 1;
            expected[4] = 1;
            expected[70_000] = 9;
            assertArrayEquals(expected, grown.array(), "after truncate then grow, the old bytes read as zeros");

            ch.position(2);
            ByteBuffer relative = ByteBuffer.allocate(4);
            assertEquals(4, ch.read(relative));
            assertEquals(6, ch.position(), "relative reads move the position");
            ch.truncate(3);
            assertEquals(3, ch.position(), "truncate below the position moves it");
        }
    }

    @ParameterizedTest
    @EnumSource(Backing.class)
    void concurrentPositionalReadsSeeTheirOwnRanges(Backing backing) throws Exception {
        String mount = "/concurrent-" + backing;
        try (MostVolume volume = mount(backing, mount);
             FileChannel ch = FilePath.get("most:" + mount + "/f").open("rw")) {
            int size = 600_000;
            byte[] data = new byte[size];
            new SplittableRandom(7).nextBytes(data);
            ch.write(ByteBuffer.wrap(data), 0);
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<Integer>> results = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    long seed = t;
                    results.add(pool.submit((Callable<Integer>) () -> {
                        SplittableRandom r = new SplittableRandom(seed);
                        for (int i = 0; i < 300; i++) {
                            int pos = r.nextInt(size);
                            int len = 1 + r.nextInt(Math.min(20_000, size - pos));
                            ByteBuffer dst = ByteBuffer.allocate(len);
                            assertEquals(len, ch.read(dst, pos));
                            assertArrayEquals(Arrays.copyOfRange(data, pos, pos + len), dst.array());
                        }
                        return 300;
                    }));
                }
                for (Future<Integer> f : results) {
                    assertEquals(300, f.get());
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Backing.class)
    void locksAreRealAndReleasedOnClose(Backing backing) throws Exception {
        String mount = "/locks-" + backing;
        String file = "most:" + mount + "/db.mv.db";
        try (MostVolume volume = mount(backing, mount)) {
            FileChannel first = FilePath.get(file).open("rw");
            FileLock lock = first.tryLock(0, Long.MAX_VALUE, false);
            assertNotNull(lock);
            assertTrue(lock.isValid());
            try (FileChannel second = FilePath.get(file).open("rw")) {
                assertNull(second.tryLock(0, Long.MAX_VALUE, false), "a second channel cannot lock the file");
                assertNull(second.tryLock(0, Long.MAX_VALUE, true), "nor share it with an exclusive holder");
                first.close();
                assertFalse(lock.isValid(), "closing a channel releases its lock");
                FileLock again = second.tryLock(0, Long.MAX_VALUE, false);
                assertNotNull(again, "the lock is free after the holder closed");
                again.release();
                FileLock sharedA = second.tryLock(0, Long.MAX_VALUE, true);
                try (FileChannel third = FilePath.get(file).open("r")) {
                    assertNotNull(third.tryLock(0, Long.MAX_VALUE, true), "shared locks coexist");
                    assertThrows(NonWritableChannelException.class, () -> third.write(ByteBuffer.allocate(1), 0));
                }
                sharedA.release();
            }
            assertThrows(ClosedChannelException.class, () -> first.read(ByteBuffer.allocate(1), 0));
        }
    }

    @ParameterizedTest
    @EnumSource(Backing.class)
    void namespaceOperations(Backing backing) throws Exception {
        String mount = "/names-" + backing;
        try (MostVolume volume = mount(backing, mount)) {
            String base = "most:" + mount;
            assertTrue(FileUtils.isDirectory(base), "the mount point is a directory");
            FileUtils.createDirectories(base + "/sub/deeper");
            try (FileChannel ch = FilePath.get(base + "/sub/a.db").open("rw")) {
                ch.write(ByteBuffer.wrap(new byte[123]), 0);
            }
            assertEquals(123, FileUtils.size(base + "/sub/a.db"));
            assertEquals(List.of(base + "/sub/a.db", base + "/sub/deeper"), FileUtils.newDirectoryStream(base + "/sub"));
            FileUtils.move(base + "/sub/a.db", base + "/b.db");
            assertFalse(FileUtils.exists(base + "/sub/a.db"));
            assertEquals(123, FileUtils.size(base + "/b.db"));
            FileUtils.delete(base + "/b.db");
            assertFalse(FileUtils.exists(base + "/b.db"));
            assertThrows(FileNotFoundException.class, () -> FilePath.get(base + "/missing").open("r"));
            assertFalse(FileUtils.exists("most:/not-mounted/x"), "paths under no mount do not exist");
            assertThrows(FileNotFoundException.class, () -> FilePath.get("most:/not-mounted/x").open("rw"));
        }
    }
}
