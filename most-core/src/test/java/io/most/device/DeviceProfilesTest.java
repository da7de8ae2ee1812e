package io.most.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class DeviceProfilesTest {

    @Test
    void shipsThePapersDevices() {
        assertEquals(List.of("optane-ssd", "nvme-pcie4", "nvme-pcie3", "sata-ssd", "pmem"), DeviceProfiles.names());
    }

    @Test
    void unscaledProfilesMatchMostTable1() {
        DeviceProfile optane = DeviceProfiles.get("optane-ssd", 1);
        assertEquals(11_000, optane.serviceNanos(IoOp.READ, 4096));
        // 16 KiB read latency 18 us in the table, within integer rounding of the per-KiB term
        assertEquals(18_000, optane.serviceNanos(IoOp.READ, 16384), 12);
        // channels derived by Little's law reproduce the 4 KiB bandwidth (2.2 GB/s) within 10%
        double bandwidth4k = optane.maxIops(IoOp.READ, 4096) * 4096;
        assertEquals(2.2e9, bandwidth4k, 0.22e9);
        DeviceProfile nvme = DeviceProfiles.get("nvme-pcie3", 1);
        assertEquals(1.0e9, nvme.maxIops(IoOp.READ, 4096) * 4096, 0.1e9);
        DeviceProfile sata = DeviceProfiles.get("sata-ssd", 1);
        assertEquals(0.38e9, sata.maxIops(IoOp.READ, 4096) * 4096, 0.04e9);
    }

    @Test
    void bandwidthCapsLargeTransfers() {
        DeviceProfile optane = DeviceProfiles.get("optane-ssd", 1);
        // 16 KiB reads: channels alone would allow 5.4 GB/s; the table's 2.4 GB/s caps it
        assertEquals(2.4e9, optane.maxIops(IoOp.READ, 16384) * 16384, 1e6);
    }

    @Test
    void scalingMultipliesTimesAndDividesBandwidthKeepingParallelism() {
        DeviceProfile base = DeviceProfiles.get("nvme-pcie3", 1);
        DeviceProfile scaled = DeviceProfiles.get("nvme-pcie3");
        assertEquals(DeviceProfiles.DEFAULT_SCALE, 10.0);
        assertEquals(base.readLatencyNanos() * 10, scaled.readLatencyNanos());
        assertEquals(base.readBandwidth() / 10, scaled.readBandwidth());
        assertEquals(base.channels(), scaled.channels());
        assertEquals(base.maxIops(IoOp.READ, 4096) / 10, scaled.maxIops(IoOp.READ, 4096), 1);
        assertTrue(scaled.source().contains("x10"));
        assertThrows(IllegalArgumentException.class, () -> base.scaled(0));
    }

    @Test
    void unknownNameListsTheValidOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DeviceProfiles.get("floppy"));
        assertTrue(e.getMessage().contains("floppy") && e.getMessage().contains("optane-ssd")
                && e.getMessage().contains("sata-ssd"), e.getMessage());
    }

    @Test
    void channelOverrideChangesCapacity() {
        DeviceProfile p = DeviceProfiles.get("optane-ssd").withChannels(12);
        assertEquals(12, p.channels());
    }
}
