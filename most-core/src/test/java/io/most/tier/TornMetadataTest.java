package io.most.tier;

import static io.most.tier.TierFixture.BLOCK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.errors.MostException;
import io.most.device.CrashableDevice;
import io.most.device.DeviceIOException;
import io.most.device.FaultyDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Torn writes of the metadata region (journal batches, checkpoints, superblock), injected with
 * {@link FaultyDevice} on the performance device, are detected by their CRCs and never cost a write
 * that a completed force covered. After each fault the volume is abandoned and reopened from what is
 * on the devices.
 */
class TornMetadataTest {
    /** A batch torn just before its CRC: everything but the checksum made it to the media. */
    private static final int TORN_HEADER = 36;
    private final CrashableDevice.Image perfImage = new CrashableDevice.Image(4 << 20);
    private final CrashableDevice.Image capImage = new CrashableDevice.Image(12 << 20);
    private final Arena arena = Arena.ofConfined();
    private final MemorySegment block = arena.allocate(BLOCK, BLOCK);
    private FaultyDevice faulty;
    private CrashableDevice perfInner;

    @AfterEach
    void close() {
        arena.close();
    }

    private TieredVolume openFaulty() {
        CrashableDevice.Crash crash = new CrashableDevice.Crash();
        perfInner = new CrashableDevice("perf", BLOCK, perfImage, crash);
        faulty = new FaultyDevice(perfInner);
        return TieredVolume.open(faulty, new CrashableDevice("cap", BLOCK, capImage, crash), TierFixture.small().build());
    }

    /** Abandons {@code volume} (its unforced writes are lost) and reopens the volume on the images. */
    private TieredVolume reopenAfterCrash(TieredVolume volume) {
        volume.halt();
        CrashableDevice.Crash crash = new CrashableDevice.Crash();
        return TieredVolume.open(new CrashableDevice("perf", BLOCK, perfImage, crash),
                new CrashableDevice("cap", BLOCK, capImage, crash), TierFixture.small().build());
    }

    private void write(TieredVolume v, long blockNo, long version) {
        TierFixture.stamp(block, blockNo, version);
        v.write(blockNo * BLOCK, block);
    }

    private long read(TieredVolume v, long blockNo) {
        v.read(blockNo * BLOCK, block);
        return TierFixture.versionOf(block, blockNo);
    }

    @Test
    void tornJournalBatchFailsItsForceAndLosesNothingForced() {
        TieredVolume v = openFaulty();
        write(v, 0, 1);
        v.force();
        write(v, 16, 1); // a new segment: its mapping goes into the next batch
        faulty.tearNextWrite(TORN_HEADER, false);
        DeviceIOException e = assertThrows(DeviceIOException.class, v::force);
        assertTrue(e.getMessage().contains("torn"), e.getMessage());
        perfInner.force(); // the torn batch reaches the media
        try (TieredVolume after = reopenAfterCrash(v)) {
            assertEquals(1, read(after, 0));
            assertEquals(0, read(after, 16), "the torn batch was not applied");
            write(after, 16, 2);
            after.force();
        }
        try (TieredVolume again = reopenAfterCrash(openFaulty())) {
            assertEquals(1, read(again, 0));
            assertEquals(2, read(again, 16));
        }
    }

    @Test
    void forceAfterAFailedBatchCheckpointsAndMakesEverythingDurable() {
        TieredVolume v = openFaulty();
        write(v, 0, 1);
        v.force();
        write(v, 16, 1);
        faulty.tearNextWrite(TORN_HEADER, false);
        assertThrows(DeviceIOException.class, v::force);
        long checkpoints = v.tierStats().checkpoints();
        v.force(); // the journal may be torn at its head: this force takes a checkpoint instead
        assertEquals(checkpoints + 1, v.tierStats().checkpoints());
        try (TieredVolume after = reopenAfterCrash(v)) {
            assertEquals(1, read(after, 0));
            assertEquals(1, read(after, 16));
        }
    }

    @Test
    void silentlyTornBatchIsDetectedOnRecovery() {
        TieredVolume v = openFaulty();
        write(v, 0, 1);
        v.force();
        write(v, 16, 1);
        faulty.tearNextWrite(TORN_HEADER, true); // the device acknowledges a write it did not complete
        v.force();
        try (TieredVolume after = reopenAfterCrash(v)) {
            assertEquals(1, read(after, 0), "earlier batches are intact");
            assertEquals(0, read(after, 16), "the torn batch is ignored, not misread");
        }
    }

    @ParameterizedTest(name = "silent: {0}")
    @ValueSource(booleans = {false, true})
    void tornCheckpointKeepsThePreviousOneAndItsJournal(boolean silent) {
        TieredVolume v = openFaulty();
        write(v, 0, 1);
        write(v, 16, 1);
        v.force();
        faulty.tearNextWrite(10, silent); // the checkpoint body
        DeviceIOException e = assertThrows(DeviceIOException.class, v::checkpointNow);
        assertTrue(e.getMessage().contains(silent ? "read back" : "torn"), e.getMessage());
        write(v, 0, 2);
        write(v, 32, 1);
        v.force();
        try (TieredVolume after = reopenAfterCrash(v)) {
            assertEquals(2, read(after, 0));
            assertEquals(1, read(after, 16));
            assertEquals(1, read(after, 32));
        }
    }

    @Test
    void damagedFirstSuperblockCopyIsReplacedByTheSecond() {
        try (TieredVolume v = openFaulty()) {
            write(v, 0, 1);
        }
        perfImage.durable.asSlice(100, 8).fill((byte) 0x5A); // damage block 0
        try (TieredVolume after = reopenAfterCrash(openFaulty())) {
            assertEquals(1, read(after, 0));
        }
    }

    @Test
    void volumeWithoutAValidCheckpointIsReportedDamagedNotReformatted() {
        try (TieredVolume v = openFaulty()) {
            write(v, 0, 1);
        }
        VolumeLayout layout = VolumeLayout.readLabel(new CrashableDevice("perf", BLOCK, perfImage,
                new CrashableDevice.Crash())).layout();
        for (int slot = 0; slot < 2; slot++) {
            perfImage.durable.asSlice(layout.checkpointOffset() + slot * layout.checkpointBytes(), 64).fill((byte) 1);
        }
        MostException e = assertThrows(MostException.class, this::openFaulty);
        assertTrue(e.getMessage().contains("damaged") && e.getMessage().contains("'faulty-perf'"), e.getMessage());
    }
}
