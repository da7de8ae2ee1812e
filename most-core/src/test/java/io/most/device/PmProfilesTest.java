package io.most.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PmProfilesTest {

    @Test
    void shipsOptaneCxlAndNone() {
        assertEquals(List.of("optane-pm", "optane-pm-2dimm", "optane-pm-1dimm", "cxl-far-memory", "none"),
                PmProfiles.names());
    }

    @Test
    void optaneProfilesMatchThePapers() {
        PmProfile six = PmProfiles.get("optane-pm", 1);
        assertEquals(256, six.granularity());
        assertEquals(490, six.serviceNanos(IoOp.READ, 1));
        assertEquals(1_220, six.serviceNanos(IoOp.READ, 16));
        assertEquals(2_710, six.serviceNanos(IoOp.WRITE, 16));
        // Spitfire Table 1: random read 28.8 GB/s, random write 6 GB/s at 4 KiB
        assertEquals(28.8e9, six.maxIops(IoOp.READ, 4096) * 4096, 0.01e9);
        assertEquals(6e9, six.maxIops(IoOp.WRITE, 4096) * 4096, 0.01e9);
        for (String name : List.of("optane-pm", "optane-pm-2dimm", "optane-pm-1dimm")) {
            PmProfile p = PmProfiles.get(name, 1);
            double ratio = (double) p.readBandwidth() / p.writeBandwidth();
            assertTrue(ratio >= 2.5 && ratio <= 6, name + ": writes get 1/" + ratio + " of the read bandwidth");
            // MaxIOPS falls with size and writes cost more at every size (thesis Fig. 5.3)
            for (long size = 256; size < 4096; size += 256) {
                assertTrue(p.maxIops(IoOp.READ, size) >= p.maxIops(IoOp.READ, size + 256), name + " " + size);
                assertTrue(p.costPicos(IoOp.READ, size) < p.costPicos(IoOp.WRITE, size), name + " " + size);
            }
            // with enough XPLine loads in flight the device reaches its bandwidth ...
            assertEquals(p.readBandwidth(), p.maxIops(IoOp.READ, 256) * 256, p.readBandwidth() * 0.02, name);
            // ... while one thread waiting on each load gets far less from 256 B than from 4 KiB (Table 5.2)
            assertTrue(256.0 / p.serviceNanos(IoOp.READ, 1) < 4096.0 / p.serviceNanos(IoOp.READ, 16) / 4, name);
        }
        assertEquals(11.9e9, PmProfiles.get("optane-pm-2dimm", 1).maxIops(IoOp.READ, 4096) * 4096, 0.01e9);
    }

    @Test
    void cxlMovesCacheLines() {
        PmProfile cxl = PmProfiles.get("cxl-far-memory", 1);
        assertEquals(64, cxl.granularity());
        assertEquals(1, cxl.granules(64));
        assertEquals(cxl.costPicos(IoOp.READ, 64), cxl.costPicos(IoOp.WRITE, 64));
        assertTrue(cxl.costPicos(IoOp.READ, 64) < PmProfiles.get("optane-pm", 1).costPicos(IoOp.READ, 64));
    }

    @Test
    void scaleSlowsPmAsItSlowsTheBlockProfiles() {
        PmProfile scaled = PmProfiles.get("optane-pm");
        PmProfile unscaled = PmProfiles.get("optane-pm", 1);
        assertEquals(unscaled.read4KiBLatencyNanos() * DeviceProfiles.DEFAULT_SCALE, scaled.read4KiBLatencyNanos(), 1);
        assertEquals(unscaled.writeBandwidth() / DeviceProfiles.DEFAULT_SCALE, scaled.writeBandwidth(), 1);
        assertEquals(unscaled.channels(), scaled.channels());
        // PM keeps its measured lead over flash at the common scale
        assertTrue(scaled.serviceNanos(IoOp.READ, 16) * 50 < DeviceProfiles.get("nvme-pcie3").serviceNanos(IoOp.READ, 4096));
    }

    @Test
    void noneIsFree() {
        PmProfile none = PmProfiles.get("none");
        assertTrue(none.isFree());
        assertEquals(0, none.costPicos(IoOp.WRITE, 4096));
        assertTrue(none == none.scaled(10));
    }

    @Test
    void theBlockPmemProfileMapsToOptanePmAtItsScale() {
        assertEquals(PmProfiles.get("optane-pm"), PmProfiles.forDeviceProfile(DeviceProfiles.get("pmem")));
        assertEquals(PmProfiles.get("optane-pm", 2.5), PmProfiles.forDeviceProfile(DeviceProfiles.get("pmem", 2.5)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PmProfiles.forDeviceProfile(DeviceProfiles.get("sata-ssd")));
        assertTrue(e.getMessage().contains("sata-ssd") && e.getMessage().contains("optane-pm"), e.getMessage());
    }

    @Test
    void badProfilesAreNamedErrors() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> PmProfiles.get("optane"));
        assertTrue(unknown.getMessage().contains("unknown PM profile 'optane'")
                && unknown.getMessage().contains("cxl-far-memory"), unknown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PmProfiles.get("optane-pm", 0));
        assertThrows(IllegalArgumentException.class, () -> PmProfiles.get("optane-pm", Double.NaN));
        assertBad("granularity", () -> profile(100, 490, 1_220, 8, 1, 0.0));
        assertBad("granularity", () -> profile(8192, 490, 1_220, 8, 1, 0.0));
        assertBad("negative", () -> profile(256, -1, 1_220, 8, 1, 0.0));
        assertBad("cannot be faster", () -> profile(256, 2_000, 1_220, 8, 1, 0.0));
        assertBad("positive", () -> profile(256, 490, 1_220, 0, 1, 0.0));
        assertBad("positive", () -> profile(256, 490, 1_220, 8, 0, 0.0));
        assertBad("at most", () -> profile(256, 490, 1_220, 5_000, 1, 0.0));
        assertBad("writeInterference", () -> profile(256, 490, 1_220, 8, 1, Double.NaN));
        assertBad("writeInterference", () -> profile(256, 490, 1_220, 8, 1, -0.5));
        assertBad("blank", () -> new PmProfile(" ", "s", 256, 1, 1, 1, 1, 1, 1, 1, 0));
    }

    private static PmProfile profile(int granularity, long latency, long latency4KiB, int channels, long bandwidth,
                                     double interference) {
        return new PmProfile("bad", "test", granularity, latency, latency4KiB, latency, latency4KiB, channels,
                bandwidth, bandwidth, interference);
    }

    private static void assertBad(String fragment, org.junit.jupiter.api.function.Executable build) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, build);
        assertTrue(e.getMessage().contains(fragment), e.getMessage());
        assertTrue(e.getMessage().contains("'bad'") || fragment.equals("blank"), e.getMessage());
    }
}
