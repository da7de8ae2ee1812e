package io.most.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.DeviceProfile;
import io.most.device.DeviceProfiles;
import io.most.device.IoOp;
import org.junit.jupiter.api.Test;

class ModelExpectationTest {

    @Test
    void pureReadsAndWritesMatchTheProfile() {
        for (String name : DeviceProfiles.names()) {
            DeviceProfile p = DeviceProfiles.get(name);
            for (long bytes : new long[] {4096, 16384}) {
                assertEquals(p.maxIops(IoOp.READ, bytes), ModelExpectation.maxIops(p, 0, bytes), 1e-6, name);
                assertEquals(p.maxIops(IoOp.WRITE, bytes), ModelExpectation.maxIops(p, 1, bytes), 1e-6, name);
            }
        }
    }

    @Test
    void aMixIsBetweenItsPartsUnlessInterferenceSlowsReads() {
        DeviceProfile optane = DeviceProfiles.get("optane-ssd"); // symmetric, no interference
        double mix = ModelExpectation.maxIops(optane, 0.5, 4096);
        assertTrue(mix <= Math.max(optane.maxIops(IoOp.READ, 4096), optane.maxIops(IoOp.WRITE, 4096)));
        assertTrue(mix >= Math.min(optane.maxIops(IoOp.READ, 4096), optane.maxIops(IoOp.WRITE, 4096)));
        assertEquals(110.0, ModelExpectation.readLatencyMicros(optane), 1e-9);
    }
}
