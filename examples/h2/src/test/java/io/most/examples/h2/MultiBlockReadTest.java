package io.most.examples.h2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.PageStoreStats;
import io.most.device.FaultyDevice;
import io.most.device.IoOp;
import io.most.device.MemoryDevice;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.h2.store.fs.FilePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads that span several blocks of a page store backing whose DRAM holds almost none of the file:
 * the buffered blocks are copied optimistically, the missing ones fetched concurrently
 * ({@link PageStoreBlockSpace#readAll}). Every byte must be the file's, from any offset, under
 * concurrent readers, and a failed fetch must surface as an I/O error that loses nothing.
 */
class MultiBlockReadTest {
    private static final int PAGE = 4096;
    private static final int FILE_BYTES = 2 << 20;

    @TempDir
    Path dir;

    private MostVolume volume(FaultyDevice device) throws IOException {
        PageStoreConfig config = PageStoreConfig.builder()
                .pageSize(PAGE)
                .dramBytes((long) PageStoreConfig.MIN_DRAM_FRAMES * PAGE) // 64 KiB: nearly every read misses
                .blockDevice(device)
                .build();
        Path lock = Files.createFile(dir.resolve("store.lock"));
        return MostVolumes.onPageStore(config, lock, VolumeOptions.defaults().withSyncInterval(Duration.ZERO));
    }

    private static FaultyDevice device() {
        return new FaultyDevice(new MemoryDevice("multi-block", PAGE, PageStore.blockDeviceBytesFor(1024, PAGE)));
    }

    private static byte[] writeFile(FileChannel ch) throws IOException {
        byte[] bytes = new byte[FILE_BYTES];
        new SplittableRandom(7).nextBytes(bytes);
        ByteBuffer src = ByteBuffer.wrap(bytes);
        while (src.hasRemaining()) {
            ch.write(src, src.position());
        }
        ch.force(true);
        return bytes;
    }

    @Test
    void concurrentUnalignedReadsOfEvictedBlocksReturnTheFilesBytes() throws Exception {
        String mount = "/multi-block-reads";
        try (MostVolume volume = volume(device())) {
            MostFileSystem.mount(mount, volume);
            try (FileChannel ch = FilePath.get("most:" + mount + "/data.bin").open("rw")) {
                byte[] model = writeFile(ch);
                PageStoreStats before = volume.pageStoreStats().orElseThrow();
                ExecutorService readers = Executors.newFixedThreadPool(4);
                try {
                    List<Future<Integer>> done = new ArrayList<>();
                    for (int t = 0; t < 4; t++) {
                        long seed = t;
                        done.add(readers.submit(() -> readAndCompare(ch, model, new SplittableRandom(seed), 150)));
                    }
                    for (Future<Integer> f : done) {
                        assertEquals(150, f.get());
                    }
                } finally {
                    readers.shutdown();
                }
                PageStoreStats after = volume.pageStoreStats().orElseThrow();
                assertTrue(after.misses() - before.misses() >= 600,
                        "the reads must have missed DRAM (so the concurrent fetch ran): " + before + " -> " + after);
            }
        } finally {
            MostFileSystem.unmount(mount);
        }
    }

    private static int readAndCompare(FileChannel ch, byte[] model, SplittableRandom random, int reads) throws IOException {
        for (int i = 0; i < reads; i++) {
            int pos = random.nextInt(model.length);
            int len = 1 + random.nextInt(24 * 1024); // H2 reads a page of up to ~24 KiB at once
            ByteBuffer dst = ByteBuffer.allocate(len);
            int n = ch.read(dst, pos);
            assertEquals(Math.min(len, model.length - pos), n);
            assertArrayEquals(Arrays.copyOfRange(model, pos, pos + n), Arrays.copyOf(dst.array(), n),
                    "bytes at " + pos + ", length " + n);
        }
        return reads;
    }

    @Test
    void aFailedFetchIsAnIoErrorAndTheNextReadIsWhole() throws Exception {
        String mount = "/multi-block-failure";
        FaultyDevice device = device();
        try (MostVolume volume = volume(device)) {
            MostFileSystem.mount(mount, volume);
            try (FileChannel ch = FilePath.get("most:" + mount + "/data.bin").open("rw")) {
                byte[] model = writeFile(ch);
                int pos = 1000; // the file's first blocks were evicted long ago: all five miss
                ByteBuffer dst = ByteBuffer.allocate(5 * PAGE);
                device.failNext(IoOp.READ, 2);
                assertThrows(IOException.class, () -> ch.read(dst, pos));
                device.clear();
                ByteBuffer again = ByteBuffer.allocate(5 * PAGE);
                assertEquals(5 * PAGE, ch.read(again, pos));
                assertArrayEquals(Arrays.copyOfRange(model, pos, pos + 5 * PAGE), again.array());
            }
        } finally {
            MostFileSystem.unmount(mount);
        }
    }
}
