package io.most.sharing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.DeviceProfiles;
import io.most.device.EmulatedPm;
import io.most.device.MemoryDevice;
import io.most.device.PmProfiles;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tenants by name under a policy given as text: the same name is the same tenant, controllers start
 * once the policy has what it needs (the latency-critical tenant, a limited tenant) and govern every
 * tenant joined, a fixed share applies without a policy, closing releases every throttle, and a
 * wrong policy is refused naming the valid ones.
 */
class SharedTenantsTest {
    @TempDir
    Path dir;

    private static SharedDevices devices(MemoryDevice flash, String pmProfile) {
        return new SharedDevices(new EmulatedPm(PmProfiles.get(pmProfile)), flash, DeviceProfiles.get("nvme-pcie4"));
    }

    @Test
    void controllersStartOnceThePolicyHasWhatItNeeds() {
        try (MemoryDevice flash = new MemoryDevice(4 << 20)) {
            try (SharedTenants qos = new SharedTenants(devices(flash, "optane-pm-2dimm"), "qos:lc:2ms")) {
                Tenant be = qos.tenant("be", SharedTenants.Terms.DEFAULT);
                assertEquals(0, qos.runningControllers(), "no target until the latency-critical tenant joins");
                qos.tenant("lc", SharedTenants.Terms.DEFAULT);
                assertEquals(1, qos.runningControllers(), "one latency controller, on PM");
                assertSame(be, qos.tenant("be", SharedTenants.Terms.DEFAULT), "a name is one tenant");
            }
            try (SharedTenants limit = new SharedTenants(devices(flash, "optane-pm-2dimm"), "limit")) {
                limit.tenant("free", SharedTenants.Terms.DEFAULT);
                assertEquals(0, limit.runningControllers(), "nobody limited yet");
                limit.tenant("capped", new SharedTenants.Terms(1, 0.3, 0));
                assertEquals(2, limit.runningControllers(), "PM and the block device");
            }
            try (SharedTenants fair = new SharedTenants(devices(flash, "none"), "FAIR")) {
                fair.tenant("a", SharedTenants.Terms.DEFAULT);
                assertEquals("fair", fair.policy());
                assertEquals(1, fair.runningControllers(), "PM is free: the block device only");
                fair.close();
                assertEquals(0, fair.runningControllers());
                assertThrows(IllegalStateException.class, () -> fair.tenant("b", SharedTenants.Terms.DEFAULT));
            }
        }
    }

    @Test
    void withoutAPolicyAShareIsAFixedCap() {
        try (MemoryDevice flash = new MemoryDevice(4 << 20)) {
            SharedTenants none = new SharedTenants(devices(flash, "optane-pm-2dimm"), "none");
            Tenant capped = none.tenant("capped", new SharedTenants.Terms(1, 0, 0.25));
            Tenant free = none.tenant("free", SharedTenants.Terms.DEFAULT);
            assertEquals(0.25, capped.throttle(Resource.PM).share());
            assertEquals(0.25, capped.throttle(Resource.DEVICE).share());
            assertFalse(free.throttle(Resource.DEVICE).isCapped());
            assertEquals(0, none.runningControllers());
            none.tenant("capped", SharedTenants.Terms.DEFAULT); // new terms: the cap goes
            assertFalse(capped.throttle(Resource.DEVICE).isCapped());
            none.close();
            assertTrue(flash.isOpen(), "a device given stays open");
        }
    }

    @Test
    void aFileOpenedForTheTenantsClosesWithThem() throws Exception {
        Path file = dir.resolve("sub").resolve("tenants.most");
        SharedTenants tenants = SharedTenants.onFile(file, 4 << 20, new EmulatedPm(PmProfiles.get("none")),
                DeviceProfiles.get("nvme-pcie4"), "none");
        tenants.tenant("a", SharedTenants.Terms.DEFAULT).space("s", 1 << 20).close();
        tenants.close();
        assertEquals(4 << 20, Files.size(file));
        // a smaller size asked later keeps the file's length: the space made in it stays reachable
        try (SharedTenants again = SharedTenants.onFile(file, 2 << 20, new EmulatedPm(PmProfiles.get("none")),
                DeviceProfiles.get("nvme-pcie4"), "none")) {
            again.tenant("a", SharedTenants.Terms.DEFAULT).space("s", 1 << 20).close();
            assertEquals(1, again.devices().spaces().size());
        }
    }

    @Test
    void badPoliciesAndTermsAreNamed() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> SharedTenants.checkPolicy("greedy"));
        assertTrue(unknown.getMessage().contains("none, limit, proportional, fair, qos:NAME:P99"), unknown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SharedTenants.checkPolicy("qos:lc"));
        IllegalArgumentException p99 = assertThrows(IllegalArgumentException.class,
                () -> SharedTenants.checkPolicy("qos:lc:2s"));
        assertTrue(p99.getMessage().contains("2ms"), p99.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SharedTenants.checkPolicy("qos:lc:0ms"));
        assertEquals("qos:LC:500us", SharedTenants.checkPolicy("qos:LC:500US"));
        assertEquals("lc", SharedTenants.qosTenant("qos:lc:1ms"));
        assertThrows(IllegalArgumentException.class, () -> new SharedTenants.Terms(0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new SharedTenants.Terms(1, 1.5, 0));
        assertThrows(IllegalArgumentException.class, () -> new SharedTenants.Terms(1, 0, -0.1));
    }
}
