package io.most.tier;

import static io.most.tier.TierFixture.BLOCK;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.errors.ConfigurationException;
import io.most.device.CrashableDevice;
import io.most.device.MemoryDevice;
import io.most.tier.policy.MostPolicy;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Every configuration that cannot work is refused with a message saying what to change, and nothing is written. */
class ConfigurationErrorsTest {
    private static final long PERF = 4 << 20;
    private static final long CAP = 12 << 20;

    private static ConfigurationException refused(Executable open, String... words) {
        ConfigurationException e = assertThrows(ConfigurationException.class, open);
        for (String w : words) {
            assertTrue(e.getMessage().contains(w), "'" + w + "' missing in: " + e.getMessage());
        }
        return e;
    }

    private static CrashableDevice device(String name, CrashableDevice.Image image) {
        return new CrashableDevice(name, BLOCK, image, new CrashableDevice.Crash());
    }

    /** Formats a volume on two images and closes it. */
    private static void format(CrashableDevice.Image perf, CrashableDevice.Image cap) {
        TieredVolume.open(device("p", perf), device("c", cap), TierFixture.small().build()).close();
    }

    private static byte[] bytes(CrashableDevice.Image image) {
        return image.durable.toArray(ValueLayout.JAVA_BYTE);
    }

    @Test
    void performanceDeviceTooSmallForItsMetadataAndOneSegment() {
        refused(() -> TieredVolume.open(new MemoryDevice("small-perf", BLOCK, 64 * 1024), new MemoryDevice("c", BLOCK, CAP),
                TierFixture.small().build()), "performance device 'small-perf'", "too small", "at least");
    }

    @Test
    void capacityDeviceTooSmallForOneSegment() {
        refused(() -> TieredVolume.open(new MemoryDevice("p", BLOCK, PERF), new MemoryDevice("small-cap", BLOCK, 32 * 1024),
                TierFixture.small().build()), "capacity device 'small-cap'", "too small", "at least");
    }

    @Test
    void explicitJournalThatLeavesNoRoomIsRefused() {
        refused(() -> TieredVolume.open(new MemoryDevice("p", BLOCK, PERF), new MemoryDevice("c", BLOCK, CAP),
                TierFixture.small().journalBytes(PERF).build()), "too small", "smaller journalBytes");
        refused(() -> TieredVolume.open(new MemoryDevice("p", BLOCK, PERF), new MemoryDevice("c", BLOCK, CAP),
                TierFixture.small().journalBytes(BLOCK).build()), "journal", "at least");
    }

    @Test
    void blockSizesMustMatch() {
        refused(() -> TieredVolume.open(new MemoryDevice("p", 4096, PERF), new MemoryDevice("c", 512, CAP),
                TierFixture.small().build()), "4096-byte blocks", "512-byte blocks", "same block size");
    }

    @Test
    void subpageMustBeAMultipleOfTheBlockSize() {
        refused(() -> TieredVolume.open(new MemoryDevice("p", 8192, PERF), new MemoryDevice("c", 8192, CAP),
                TierFixture.small().subpageSize(4096).build()), "subpageSize(8192)");
    }

    @Test
    void oneDeviceCannotBeBoth() {
        MemoryDevice d = new MemoryDevice("d", BLOCK, CAP);
        refused(() -> TieredVolume.open(d, d, TierFixture.small().build()), "both");
    }

    @Test
    void deviceOfAnotherVolumeIsRefusedAndLeftUntouched() {
        CrashableDevice.Image p1 = new CrashableDevice.Image(PERF);
        CrashableDevice.Image c1 = new CrashableDevice.Image(CAP);
        CrashableDevice.Image p2 = new CrashableDevice.Image(PERF);
        CrashableDevice.Image c2 = new CrashableDevice.Image(CAP);
        format(p1, c1);
        format(p2, c2);
        byte[] before = bytes(p1);
        refused(() -> TieredVolume.open(device("p1", p1), device("c2", c2), TierFixture.small().build()),
                "capacity device 'c2' belongs to tiered volume", "two devices of one volume");
        assertArrayEquals(before, bytes(p1));
        // a blank performance device with another volume's capacity device
        refused(() -> TieredVolume.open(device("blank", new CrashableDevice.Image(PERF)), device("c1", c1),
                TierFixture.small().build()), "capacity device 'c1' belongs to tiered volume");
    }

    @Test
    void swappedDevicesAreRecognised() {
        CrashableDevice.Image p = new CrashableDevice.Image(PERF);
        CrashableDevice.Image c = new CrashableDevice.Image(CAP);
        format(p, c);
        refused(() -> TieredVolume.open(device("c", c), device("p", p), TierFixture.small().build()),
                "device 'c' is the capacity device", "swapped");
    }

    @Test
    void capacityDeviceMissingOrForeign() {
        CrashableDevice.Image p = new CrashableDevice.Image(PERF);
        CrashableDevice.Image c = new CrashableDevice.Image(CAP);
        format(p, c);
        refused(() -> TieredVolume.open(device("p", p), device("new", new CrashableDevice.Image(CAP)),
                TierFixture.small().build()), "capacity device 'new' is blank", "pass that volume's capacity device");
        CrashableDevice.Image foreign = new CrashableDevice.Image(CAP);
        foreign.durable.set(ValueLayout.JAVA_LONG, 64, 42L);
        refused(() -> TieredVolume.open(device("p", p), device("other", foreign), TierFixture.small().build()),
                "capacity device 'other' holds data");
    }

    @Test
    void devicesWithOtherDataAreRefused() {
        CrashableDevice.Image foreign = new CrashableDevice.Image(PERF);
        foreign.durable.set(ValueLayout.JAVA_LONG, 0, 0x1234L);
        byte[] before = bytes(foreign);
        refused(() -> TieredVolume.open(device("p", foreign), device("c", new CrashableDevice.Image(CAP)),
                TierFixture.small().build()), "performance device 'p' holds data", "blank device");
        assertArrayEquals(before, bytes(foreign));
        refused(() -> TieredVolume.open(device("p", new CrashableDevice.Image(PERF)), device("c", foreign),
                TierFixture.small().build()), "capacity device 'c' holds data", "blank device");
    }

    @Test
    void geometryMustMatchTheFormattedVolume() {
        CrashableDevice.Image p = new CrashableDevice.Image(PERF);
        CrashableDevice.Image c = new CrashableDevice.Image(CAP);
        format(p, c);
        refused(() -> TieredVolume.open(device("p", p), device("c", c), TierFixture.small().segmentSize(128 * 1024).build()),
                "configure segmentSize(65536) and subpageSize(4096)");
        CrashableDevice.Image bigger = new CrashableDevice.Image(2 * CAP);
        MemorySegment.copy(c.durable, 0, bigger.durable, 0, c.durable.byteSize());
        refused(() -> TieredVolume.open(device("p", p), device("c", bigger), TierFixture.small().build()),
                "restore their sizes");
        TieredVolume.open(device("p", p), device("c", c), TierFixture.small().build()).close(); // still fine
    }

    @Test
    void aVolumeIsOpenAtMostOnceInAJvm() {
        CrashableDevice.Image p = new CrashableDevice.Image(PERF);
        CrashableDevice.Image c = new CrashableDevice.Image(CAP);
        format(p, c);
        byte[] perfBefore;
        try (TieredVolume first = TieredVolume.open(device("p", p), device("c", c), TierFixture.small().name("first").build())) {
            perfBefore = bytes(p);
            // other device objects over the same media: the devices hold no lock, the volume's id does
            refused(() -> TieredVolume.open(device("p2", p), device("c2", c), TierFixture.small().build()),
                    "is already open in this process as 'first'", "close it before opening it again");
            assertArrayEquals(perfBefore, bytes(p), "the refused open wrote nothing");
            MemorySegment block = MemorySegment.ofArray(new byte[BLOCK]);
            first.write(0, block); // the first volume works on
            first.force();
        }
        // closed: it opens again, as it does after a crash
        TieredVolume.open(device("p", p), device("c", c), TierFixture.small().build()).close();
    }

    @Test
    void builderRejectsValuesThatCannotWork() {
        refused(() -> TierConfig.builder().segmentSize(3000).build(), "segment size 3000");
        refused(() -> TierConfig.builder().segmentSize(65536).subpageSize(131072).build(), "subpage size");
        refused(() -> TierConfig.builder().segmentSize(1 << 30).subpageSize(512).build(), "larger subpages");
        refused(() -> TierConfig.builder().hotness(8, 8).build(), "hot < cooling");
        refused(() -> TierConfig.builder().latencyEwmaAlpha(0).build(), "alpha");
        refused(() -> TierConfig.builder().migrationBytesPerSecond(0).build(), "migration rate");
        refused(() -> TierConfig.builder().optimizerInterval(Duration.ofMillis(-1)).build(), "interval");
        refused(() -> new MostPolicy.Settings(0.05, 0, 0.16, 1, 0.2, 0.025, 32, 4), "ratioStep");
        refused(() -> MostPolicy.Settings.defaults().withMaxRatioStep(0.01), "maxRatioStep");
    }
}
