package io.most.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.MemoryDevice;
import org.junit.jupiter.api.Test;

/** In-memory metadata stays within the paper's budget (Table 3: 76 bytes per segment plus subpage bits). */
class MetadataFootprintTest {

    @Test
    void oneTebibyteVolumeWithATwentyPercentMirroredClass() {
        MetadataFootprint f = MetadataFootprint.estimate(1L << 40, 2 << 20, 4096, 0.2);
        assertEquals(524_288, f.segments());
        assertEquals(104_858, f.mirroredSegments());
        assertTrue(f.bytesPerSegment() <= 80, "bytes per segment: " + f.bytesPerSegment());
        assertEquals(128, f.subpageBitsPerMirroredSegment(), "2 bits for each of 512 subpages");
        assertTrue(f.bytesPerMirroredSegment() <= 80, "mirror state besides its bits: " + f.bytesPerMirroredSegment());
        long paperBudget = 76 * f.segments() + 128 * f.mirroredSegments();
        System.out.printf("1 TiB volume, 2 MiB segments, 20%% mirrored: %d B per segment + %d B (+%d B bits) per"
                        + " mirrored segment = %.1f MiB in all (%.1f B per segment; paper's Table 3 budget %.1f MiB)%n",
                f.bytesPerSegment(), f.bytesPerMirroredSegment(), f.subpageBitsPerMirroredSegment(),
                f.totalBytes() / 1048576.0, f.averageBytesPerSegment(), paperBudget / 1048576.0);
        assertTrue(f.totalBytes() < 40L << 20, "total " + f.totalBytes());
    }

    @Test
    void twoTerabyteHierarchyMirroredHalfMatchesThePapersFigure() {
        // paper 3.2.4: "in a 2TB hierarchy ... where all performance device data is mirrored (50% mirroring),
        // the metadata overhead is only 128MB"; the slides say about 140 MB
        MetadataFootprint f = MetadataFootprint.estimate(2_000_000_000_000L, 2 << 20, 4096, 0.5);
        assertTrue(f.totalBytes() < 140_000_000L, "total " + f.totalBytes());
    }

    @Test
    void liveVolumeReportsItsOwnFootprint() {
        try (TieredVolume v = TieredVolume.open(new MemoryDevice("p", 4096, 4 << 20), new MemoryDevice("c", 4096, 12 << 20),
                TierFixture.small().build())) {
            MetadataFootprint before = v.metadataFootprint();
            assertEquals(v.capacity() / TierFixture.SEGMENT, before.segments());
            assertEquals(0, before.mirroredSegments());
            v.write(0, java.lang.foreign.Arena.ofAuto().allocate(4096, 4096));
            assertTrue(v.context().mirror(0));
            MetadataFootprint after = v.metadataFootprint();
            assertEquals(1, after.mirroredSegments());
            assertEquals(8, after.subpageBitsPerMirroredSegment(), "16 subpages of a 64 KiB segment");
            assertEquals(before.totalBytes() + after.bytesPerMirroredSegment() + 8, after.totalBytes());
        }
    }
}
