package io.most.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.DeviceIOException;
import io.most.device.DirectFileDevice;
import io.most.device.FaultyDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Torn writes injected by {@link FaultyDevice} over a {@link DirectFileDevice}: a silent tear (the
 * device acknowledged a write it did not complete, as after a power loss) must be caught by the block
 * checksum once the file is opened again, and a reported tear must name the device.
 */
class TornWriteTest {
    private static final int BLOCKS = 16;
    private static final long CAPACITY = (long) BLOCKS * CheckedBlock.SIZE;
    private static final long RUN = 0x5EED_7E4AL;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} bytes persisted")
    @ValueSource(ints = {8, 512, 2048, 4095})
    void silentTornWriteIsCaughtByTheChecksumAfterReopen(int persistedBytes) {
        Path file = dir.resolve("torn.dev");
        try (Arena arena = Arena.ofConfined()) {
            FaultyDevice faulty = new FaultyDevice(DirectFileDevice.open(file, CAPACITY));
            MemorySegment buffer = faulty.allocate(arena, CheckedBlock.SIZE);
            writeAllBlocks(faulty, buffer, 1);
            faulty.force();

            faulty.tearNextWrite(persistedBytes, true);
            CheckedBlock.fill(buffer, RUN, 5, 2);
            faulty.write(5 * CheckedBlock.SIZE, buffer); // acknowledged, but only a prefix reached the file
            CheckedBlock.fill(buffer, RUN, 6, 2);
            faulty.write(6 * CheckedBlock.SIZE, buffer); // the tear is spent: a whole write
            faulty.force();
            assertEquals(1, faulty.injectedFaults());
            faulty.close();

            try (DirectFileDevice reopened = DirectFileDevice.open(file, CAPACITY)) {
                MemorySegment block = reopened.allocate(arena, CheckedBlock.SIZE);
                for (int b = 0; b < BLOCKS; b++) {
                    reopened.read((long) b * CheckedBlock.SIZE, block);
                    CheckedBlock.Content content = CheckedBlock.inspect(block, RUN, b);
                    if (b == 5) {
                        assertEquals(CheckedBlock.State.CORRUPT, content.state(), "torn block 5 after reopen: " + content);
                        assertTrue(content.problem().startsWith("checksum mismatch"), content.problem());
                        assertTornAt(block, 5, persistedBytes, arena);
                    } else {
                        assertEquals(CheckedBlock.Content.valid(b == 6 ? 2 : 1), content, "block " + b + " after reopen");
                    }
                }
            }
        }
    }

    @Test
    void silentTearOfAMultiBlockWriteTearsOnlyTheBlockItCuts() {
        Path file = dir.resolve("torn-multi.dev");
        try (Arena arena = Arena.ofConfined()) {
            FaultyDevice faulty = new FaultyDevice(DirectFileDevice.open(file, CAPACITY));
            MemorySegment buffer = faulty.allocate(arena, CheckedBlock.SIZE);
            writeAllBlocks(faulty, buffer, 1);
            MemorySegment pair = faulty.allocate(arena, 2L * CheckedBlock.SIZE);
            CheckedBlock.fill(pair.asSlice(0, CheckedBlock.SIZE), RUN, 8, 2);
            CheckedBlock.fill(pair.asSlice(CheckedBlock.SIZE, CheckedBlock.SIZE), RUN, 9, 2);
            faulty.tearNextWrite(CheckedBlock.SIZE + 1000, true);
            faulty.write(8 * CheckedBlock.SIZE, pair);
            faulty.force();
            faulty.close();

            try (DirectFileDevice reopened = DirectFileDevice.open(file, CAPACITY)) {
                MemorySegment block = reopened.allocate(arena, CheckedBlock.SIZE);
                reopened.read(8 * CheckedBlock.SIZE, block);
                assertEquals(CheckedBlock.Content.valid(2), CheckedBlock.inspect(block, RUN, 8), "block 8, fully persisted");
                reopened.read(9 * CheckedBlock.SIZE, block);
                CheckedBlock.Content content = CheckedBlock.inspect(block, RUN, 9);
                assertEquals(CheckedBlock.State.CORRUPT, content.state(), "block 9, cut after 1000 bytes: " + content);
                assertTornAt(block, 9, 1000, arena);
            }
        }
    }

    @Test
    void reportedTornWriteThrowsNamingTheDeviceAndTheDeviceGoesOn() {
        Path file = dir.resolve("torn-loud.dev");
        try (Arena arena = Arena.ofConfined();
             FaultyDevice faulty = new FaultyDevice(DirectFileDevice.open(file, CAPACITY))) {
            MemorySegment buffer = faulty.allocate(arena, CheckedBlock.SIZE);
            writeAllBlocks(faulty, buffer, 1);
            faulty.force();

            faulty.tearNextWrite(2048, false);
            CheckedBlock.fill(buffer, RUN, 3, 2);
            DeviceIOException e = assertThrows(DeviceIOException.class, () -> faulty.write(3 * CheckedBlock.SIZE, buffer));
            assertEquals("faulty-torn-loud.dev", faulty.name());
            assertTrue(e.getMessage().contains("'" + faulty.name() + "'"), "names the device: " + e.getMessage());
            assertTrue(e.getMessage().contains("offset " + 3 * CheckedBlock.SIZE), "names the offset: " + e.getMessage());

            MemorySegment block = faulty.allocate(arena, CheckedBlock.SIZE);
            faulty.read(3 * CheckedBlock.SIZE, block);
            assertEquals(CheckedBlock.State.CORRUPT, CheckedBlock.inspect(block, RUN, 3).state(), "the reported tear left a torn block");
            assertTornAt(block, 3, 2048, arena);

            faulty.write(3 * CheckedBlock.SIZE, buffer); // the retry succeeds
            faulty.force();
            faulty.read(3 * CheckedBlock.SIZE, block);
            assertEquals(CheckedBlock.Content.valid(2), CheckedBlock.inspect(block, RUN, 3), "block 3 after the retry");
        }
    }

    private static void writeAllBlocks(FaultyDevice device, MemorySegment buffer, long generation) {
        for (int b = 0; b < BLOCKS; b++) {
            CheckedBlock.fill(buffer, RUN, b, generation);
            device.write((long) b * CheckedBlock.SIZE, buffer);
        }
    }

    /** Asserts that {@code block} is generation 2 up to {@code cut} bytes and generation 1 after it. */
    private static void assertTornAt(MemorySegment block, int index, int cut, Arena arena) {
        MemorySegment newer = arena.allocate(CheckedBlock.SIZE);
        MemorySegment older = arena.allocate(CheckedBlock.SIZE);
        CheckedBlock.fill(newer, RUN, index, 2);
        CheckedBlock.fill(older, RUN, index, 1);
        assertEquals(-1, MemorySegment.mismatch(block, 0, cut, newer, 0, cut), "first " + cut + " bytes are the new write");
        assertEquals(-1, MemorySegment.mismatch(block, cut, CheckedBlock.SIZE, older, cut, CheckedBlock.SIZE),
                "bytes from " + cut + " on are the old block");
    }
}
