package io.most.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.most.device.EmulatedPm;
import io.most.device.IoOp;
import io.most.device.PmProfiles;
import io.most.sharing.Resource;
import io.most.sharing.SharedDevices;
import io.most.sharing.Tenant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SharingMetricsTest {

    @Test
    void publishesUseThrottleSlowdownAndLatencyPerTenant() {
        EmulatedPm pm = new EmulatedPm(PmProfiles.get("optane-pm-2dimm", 1));
        SharedDevices set = new SharedDevices(pm);
        Tenant a = set.join("a");
        set.join("b");
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new SharingMetrics(set).bindTo(registry);

        a.pm().write(256);
        a.recordRequest(2_000);
        a.throttle(Resource.PM).setShare(0.25);
        a.throttle(Resource.PM).setDelayNanos(10);

        assertEquals(pm.costPicos(IoOp.WRITE, 0, 256) / 1e12,
                registry.get("most.sharing.use").tags("tenant", "a", "resource", "pm").functionCounter().count(), 1e-15);
        assertEquals(0.25, registry.get("most.sharing.throttle.share").tags("tenant", "a", "resource", "pm").gauge().value());
        assertEquals(1.0, registry.get("most.sharing.throttle.share").tags("tenant", "b", "resource", "pm").gauge().value());
        assertEquals(0.0, registry.get("most.sharing.throttle.stalled").tags("tenant", "a", "resource", "pm").gauge().value());
        assertEquals(10.0, registry.get("most.sharing.throttle.delay").tags("tenant", "a", "resource", "pm")
                .timeGauge().value(TimeUnit.NANOSECONDS));
        assertEquals(1.0, registry.get("most.sharing.slowdown").tags("tenant", "a").gauge().value());
        assertEquals(1.0, registry.get("most.sharing.requests").tags("tenant", "a").functionCounter().count());
        FunctionTimer latency = registry.get("most.sharing.latency").tags("tenant", "a").functionTimer();
        assertEquals(1.0, latency.count());
        assertEquals(2_000.0, latency.totalTime(TimeUnit.NANOSECONDS));
        // a PM-only set has no block-device meters
        assertNull(registry.find("most.sharing.use").tags("tenant", "a", "resource", "device").functionCounter());
    }
}
