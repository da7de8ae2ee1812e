package io.most.examples.h2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.UUID;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.store.fs.FilePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** What a reopen finds: the last commit, the older slot when the newest is torn, and H2's MVStore API. */
class VolumeRecoveryTest {
    @TempDir
    Path dir;

    @Test
    void aTornNewestSuperblockFallsBackToTheOlderCommit() throws Exception {
        Path file = dir.resolve("v.most");
        long newest;
        UUID id;
        try (MostVolume volume = Backing.DEVICE.open(file)) {
            MostFileSystem.mount("/torn", volume);
            try (FileChannel ch = FilePath.get("most:/torn/f").open("rw")) {
                ch.write(ByteBuffer.wrap("first".getBytes()), 0);
                ch.force(true);
                ch.write(ByteBuffer.wrap("second, longer".getBytes()), 0);
                ch.force(true);
            }
            newest = volume.generation();
            id = volume.volumeId();
        }
        try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
            raw.seek((newest % 2) * 4096 + 100); // inside the newest superblock: its checksum fails
            raw.write(0x5A);
        }
        try (MostVolume volume = Backing.DEVICE.open(file)) {
            assertEquals(newest - 1, volume.generation(), "opened at the older slot");
            assertEquals(id, volume.volumeId());
            MostFileSystem.mount("/torn", volume);
            try (FileChannel ch = FilePath.get("most:/torn/f").open("r")) {
                assertEquals(5, ch.size(), "the file as the older commit left it");
            }
        }
    }

    @Test
    void aDamagedOnlySuperblockIsAFormatErrorNotANewVolume() throws Exception {
        Path file = dir.resolve("v.most");
        Backing.DEVICE.open(file).close();
        try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
            raw.seek(100);
            raw.write(0x5A);
        }
        var e = assertThrows(VolumeFormatException.class, () -> Backing.DEVICE.open(file));
        assertTrue(e.getMessage().contains("checksum"), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Backing.class)
    void anMvStoreOpensOnAVolume(Backing backing) {
        Path file = dir.resolve("mv.most");
        String mount = "/mv-" + backing;
        byte[] value = new byte[3000];
        value[2999] = 7;
        try (MostVolume volume = backing.open(file)) {
            MostFileSystem.mount(mount, volume);
            try (MVStore store = new MVStore.Builder().fileName("most:" + mount + "/kv.mv.db").open()) {
                MVMap<Integer, byte[]> map = store.openMap("data");
                for (int i = 0; i < 2000; i++) {
                    map.put(i, value);
                }
                store.commit();
            }
        }
        try (MostVolume volume = backing.open(file)) {
            MostFileSystem.mount(mount, volume);
            try (MVStore store = new MVStore.Builder().fileName("most:" + mount + "/kv.mv.db").open()) {
                MVMap<Integer, byte[]> map = store.openMap("data");
                assertEquals(2000, map.size());
                assertArrayEquals(value, map.get(1999));
            }
        }
    }
}
