package io.most.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.most.device.MemoryDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DeviceMetricsTest {

    @Test
    void publishesOpsBytesLatencyAndInflightPerDeviceAndOp() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (MemoryDevice device = new MemoryDevice("ssd0", 4096, 1 << 20); Arena arena = Arena.ofConfined()) {
            new DeviceMetrics(List.of(device)).bindTo(registry);
            MemorySegment buf = device.allocate(arena, 8192);
            device.write(0, buf);
            device.read(0, buf);
            device.read(0, buf);

            assertEquals(2.0, registry.get("most.device.ops").tags("device", "ssd0", "op", "read").functionCounter().count());
            assertEquals(8192.0, registry.get("most.device.bytes").tags("device", "ssd0", "op", "write").functionCounter().count());
            assertEquals(0.0, registry.get("most.device.errors").tags("device", "ssd0", "op", "read").functionCounter().count());
            FunctionTimer latency = registry.get("most.device.latency").tags("device", "ssd0", "op", "read").functionTimer();
            assertEquals(2.0, latency.count());
            assertTrue(latency.totalTime(TimeUnit.NANOSECONDS) > 0);
            assertTrue(registry.get("most.device.latency.percentile").tags("device", "ssd0", "op", "read", "phi", "0.99")
                    .timeGauge().value(TimeUnit.NANOSECONDS) > 0);
            assertEquals(0.0, registry.get("most.device.inflight").tags("device", "ssd0").gauge().value());
        }
    }
}
