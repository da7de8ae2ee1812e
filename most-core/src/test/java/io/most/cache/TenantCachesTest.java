package io.most.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.Page;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.device.BlockDevice;
import io.most.device.DeviceProfile;
import io.most.device.DeviceProfiles;
import io.most.device.EmulatedPm;
import io.most.device.ForwardingDevice;
import io.most.device.IoOp;
import io.most.device.IoRequest;
import io.most.device.MemoryDevice;
import io.most.device.PmProfiles;
import io.most.errors.ConfigurationException;
import io.most.sharing.Resource;
import io.most.sharing.SharedDevices;
import io.most.sharing.Tenant;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Caches and page stores opened as tenants of one set of shared devices (the emulated Optane PM and
 * one flash device): each keeps its data in its own spaces, the cost units charged to the tenants add
 * up to what reached the shared devices, each key operation is a request of its tenant, and a
 * throttled tenant is held while the other goes on. No timing thresholds: the throttled tenant is
 * stalled, and the test shows the other finishing its work while the stalled one provably waits.
 */
class TenantCachesTest {
    private static final long MIB = 1 << 20;
    private static final DeviceProfile SSD = DeviceProfiles.get("nvme-pcie4", 1);

    @TempDir
    Path dir;

    private static CacheConfig.Builder cache(Tenant tenant) {
        return CacheConfig.builder().tenant(tenant).dramBytes(64 * 4096).smallItemFrontBytes(0)
                .smallItemBytes(256 * 4096).largeItemBytes(4 * MIB).regionSize(256 * 1024);
    }

    @Test
    void twoCachesShareOneDeviceEachInItsSpaceAndTheAccountsAddUp() {
        EmulatedPm pm = new EmulatedPm(PmProfiles.get("optane-pm-2dimm", 1));
        try (MemoryDevice flash = new MemoryDevice(64 * MIB)) {
            CostCountingDevice counted = new CostCountingDevice(flash);
            SharedDevices set = new SharedDevices(pm, counted, SSD);
            Tenant a = set.join("a");
            Tenant b = set.join("b");
            byte[] big = new byte[20_000];
            Arrays.fill(big, (byte) 'B');
            try (MostCache ca = MostCache.open(cache(a).directory(dir.resolve("a")).pmBytes(32 * 4096).build());
                 MostCache cb = MostCache.open(cache(b).build())) {
                long requestsBefore = a.requests();
                for (int i = 0; i < 400; i++) {
                    ca.put(key("k" + i), key("a" + i));
                    cb.put(key("k" + i), key("b" + i));
                }
                cb.put(key("big"), big);
                ca.flush();
                cb.flush();
                for (int i = 0; i < 400; i++) {
                    assertArrayEquals(key("a" + i), ca.get(key("k" + i)));
                    assertArrayEquals(key("b" + i), cb.get(key("k" + i)));
                }
                assertArrayEquals(big, cb.get(key("big")));
                assertNull(ca.get(key("big")), "one tenant's key is not in the other's cache");
                assertEquals(requestsBefore + 801, a.requests(), "each put and get is one request of its tenant");
                assertTrue(a.usedPicos(Resource.PM) > 0, "cache a's PM frames were paid through its account");
                assertEquals(0, b.usedPicos(Resource.PM), "cache b has no PM");
                assertEquals(pm.consumedPicos(), a.usedPicos(Resource.PM) + b.usedPicos(Resource.PM));
                assertTrue(a.usedPicos(Resource.DEVICE) > 0 && b.usedPicos(Resource.DEVICE) > 0);
                assertEquals(counted.spacePicos(), a.usedPicos(Resource.DEVICE) + b.usedPicos(Resource.DEVICE),
                        "every device access in the spaces is charged to a tenant, once");
                assertEquals(List.of("a/small-items", "a/large-items", "b/small-items", "b/large-items"),
                        List.copyOf(set.spaces().keySet()));
            }
            // reopened in a new set (the next process), in the other order: each finds its own keys
            SharedDevices next = new SharedDevices(pm, flash, SSD);
            Tenant b2 = next.join("b");
            Tenant a2 = next.join("a");
            try (MostCache cb = MostCache.open(cache(b2).build());
                 MostCache ca = MostCache.open(cache(a2).directory(dir.resolve("a")).pmBytes(32 * 4096).build())) {
                assertArrayEquals(key("a7"), ca.get(key("k7")));
                assertArrayEquals(key("b7"), cb.get(key("k7")));
                assertArrayEquals(big, cb.get(key("big")));
            }
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS) // a hang guard, not a measurement
    void aStalledTenantWaitsWhileTheOtherOneWorks() throws Exception {
        try (MemoryDevice flash = new MemoryDevice(64 * MIB)) {
            SharedDevices set = new SharedDevices(new EmulatedPm(PmProfiles.get("optane-pm-2dimm", 1)), flash, SSD);
            Tenant slow = set.join("slow");
            Tenant fast = set.join("fast");
            // no background cleaner (dirty ratio 1): the flush is the slow tenant's only device writer
            try (MostCache cs = MostCache.open(cache(slow).dirtyRatio(1).build());
                 MostCache cf = MostCache.open(cache(fast).build())) {
                for (int i = 0; i < 200; i++) {
                    cs.put(key("k" + i), key("v" + i));
                }
                slow.throttle(Resource.DEVICE).stall();
                long slowUse = slow.usedPicos(Resource.DEVICE);
                Thread flusher = Thread.ofPlatform().start(cs::flush); // must write its dirty pages
                awaitHeldByThrottle(flusher);
                long fastUse = fast.usedPicos(Resource.DEVICE);
                for (int i = 0; i < 200; i++) {
                    cf.put(key("k" + i), key("w" + i));
                }
                cf.flush(); // the other tenant's writes pass while the stalled one's are held
                assertTrue(fast.usedPicos(Resource.DEVICE) > fastUse, "the unthrottled tenant wrote");
                assertTrue(flusher.isAlive(), "the stalled tenant's flush finished through a stall");
                assertEquals(slowUse, slow.usedPicos(Resource.DEVICE), "a device access passed the stall");
                slow.throttle(Resource.DEVICE).resume();
                flusher.join();
                assertTrue(slow.usedPicos(Resource.DEVICE) > slowUse, "the flush wrote once resumed");
                assertArrayEquals(key("v7"), cs.get(key("k7")));
            }
        }
    }

    @Test
    void aPageStoreAsATenantPaysPmAndDeviceThroughItsTenant() {
        EmulatedPm pm = new EmulatedPm(PmProfiles.get("optane-pm-2dimm", 1));
        try (MemoryDevice flash = new MemoryDevice(16 * MIB)) {
            SharedDevices set = new SharedDevices(pm, flash, SSD);
            Tenant t = set.join("pages");
            long bytes = PageStore.blockDeviceBytesFor(256, 4096);
            PageStoreConfig config = PageStoreConfig.builder().pageSize(4096).dramBytes(16 * 4096).tenant(t)
                    .blockDevice(t.space("store", bytes)).pm(dir.resolve("t.pm"), 33 * 4096).build();
            assertEquals(pm, config.pmModel(), "a tenant's PM tier pays through its set's PM model");
            try (PageStore store = PageStore.open(config)) {
                for (int i = 0; i < 64; i++) {
                    long id = store.allocate();
                    try (Page page = store.write(id)) {
                        page.payload().set(ValueLayout.JAVA_INT, 0, i);
                        page.markDirty(1);
                    }
                }
                store.checkpoint();
            }
            assertTrue(t.usedPicos(Resource.PM) > 0 && t.usedPicos(Resource.DEVICE) > 0);
            assertEquals(pm.consumedPicos(), t.usedPicos(Resource.PM));
        }
    }

    @Test
    void aTenantsStoreOrCacheOffItsSpacesIsRefused() {
        try (MemoryDevice flash = new MemoryDevice(16 * MIB); MemoryDevice other = new MemoryDevice(4 * MIB)) {
            SharedDevices set = new SharedDevices(new EmulatedPm(PmProfiles.get("none")), flash, SSD);
            Tenant t = set.join("t");
            Tenant u = set.join("u");
            ConfigurationException foreign = assertThrows(ConfigurationException.class,
                    () -> PageStoreConfig.builder().pageSize(4096).dramBytes(16 * 4096).tenant(t).blockDevice(other).build());
            assertTrue(foreign.getMessage().contains("not one of the tenant's spaces"), foreign.getMessage());
            BlockDevice uSpace = u.space("x", MIB);
            assertThrows(ConfigurationException.class,
                    () -> PageStoreConfig.builder().pageSize(4096).dramBytes(16 * 4096).tenant(t).blockDevice(uSpace).build());
            assertThrows(ConfigurationException.class, () -> PageStoreConfig.builder().pageSize(4096).dramBytes(16 * 4096)
                    .tenant(t).blockDevice(t.space("y", MIB)).pm(dir.resolve("p.pm"), 33 * 4096)
                    .pmProfile("optane-pm").build());
            assertThrows(ConfigurationException.class, () -> cache(t).largeItemDevice(uSpace).build());
            ConfigurationException pmOnly = assertThrows(ConfigurationException.class,
                    () -> cache(new SharedDevices(new EmulatedPm(PmProfiles.get("none"))).join("p")).build());
            assertTrue(pmOnly.getMessage().contains("PM only"), pmOnly.getMessage());
            ConfigurationException noDir = assertThrows(ConfigurationException.class,
                    () -> cache(t).pmBytes(32 * 4096).build());
            assertTrue(noDir.getMessage().contains("PM file"), noDir.getMessage());
        }
    }

    @Test
    void aCacheThatIsNoTenantPaysAGivenPmModelDirectly() {
        EmulatedPm pm = new EmulatedPm(PmProfiles.get("optane-pm-2dimm", 1));
        try (MemoryDevice flash = new MemoryDevice(16 * MIB)) {
            CacheConfig config = CacheConfig.builder().directory(dir).dramBytes(16 * 4096).smallItemFrontBytes(0)
                    .pmBytes(64 * 4096).smallItemBytes(32 * 4096).largeItemBytes(0).pmModel(pm)
                    .smallItemDevice(new io.most.device.DeviceSlice(flash, 0, 4 * MIB, "small")).build();
            assertEquals(pm, config.pmModel());
            try (MostCache cache = MostCache.open(config)) {
                for (int i = 0; i < 200; i++) {
                    cache.put(key("k" + i), key("v" + i));
                }
                long before = pm.consumedPicos();
                for (int i = 0; i < 200; i++) {
                    assertArrayEquals(key("v" + i), cache.get(key("k" + i)));
                }
                assertTrue(pm.consumedPicos() > before, "gets of bucket pages in PM paid the model");
            }
        }
    }

    @Test
    void aPmModelNeedsPmAndATenantsCacheTakesOnlyItsSetsModel() {
        EmulatedPm pm = new EmulatedPm(PmProfiles.get("optane-pm-2dimm", 1));
        ConfigurationException noPm = assertThrows(ConfigurationException.class,
                () -> CacheConfig.builder().directory(dir).pmModel(pm).build());
        assertTrue(noPm.getMessage().contains("pmBytes is 0"), noPm.getMessage());
        try (MemoryDevice flash = new MemoryDevice(16 * MIB)) {
            Tenant t = new SharedDevices(pm, flash, SSD).join("t");
            ConfigurationException other = assertThrows(ConfigurationException.class, () -> cache(t).directory(dir)
                    .pmBytes(32 * 4096).pmModel(new EmulatedPm(PmProfiles.get("optane-pm-2dimm", 1))).build());
            assertTrue(other.getMessage().contains("drop pmModel"), other.getMessage());
            assertEquals(pm, cache(t).directory(dir).pmBytes(32 * 4096).pmModel(pm).build().pmModel(),
                    "naming the set's own device is allowed");
        }
    }

    /** Waits until {@code thread} waits in a throttle (a stall), however the machine schedules it. */
    private static void awaitHeldByThrottle(Thread thread) throws InterruptedException {
        while (true) {
            if (thread.getState() == Thread.State.WAITING && Arrays.stream(thread.getStackTrace())
                    .anyMatch(f -> f.getClassName().equals("io.most.sharing.Throttle"))) {
                return;
            }
            assertTrue(thread.isAlive(), "the stalled tenant's flush finished without waiting in its throttle");
            Thread.sleep(1);
        }
    }

    private static byte[] key(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The shared device as the tenants reach it, charging every access beyond the space table (the
     * first MiB) what a tenant's view charges, to check that the tenants' accounts add up.
     */
    private static final class CostCountingDevice extends ForwardingDevice {
        private final AtomicLong picos = new AtomicLong();

        CostCountingDevice(BlockDevice inner) {
            super(inner);
        }

        long spacePicos() {
            return picos.get();
        }

        private void count(IoOp op, long offset, long bytes) {
            if (offset >= MIB) {
                picos.addAndGet(Math.round(1e12 / SSD.maxIops(op, bytes)));
            }
        }

        @Override
        public void read(long offset, MemorySegment destination) {
            count(IoOp.READ, offset, destination.byteSize());
            super.read(offset, destination);
        }

        @Override
        public void write(long offset, MemorySegment source) {
            count(IoOp.WRITE, offset, source.byteSize());
            super.write(offset, source);
        }

        @Override
        public void transferAll(List<IoRequest> requests) {
            for (IoRequest r : requests) {
                count(r.op(), r.offset(), r.length());
            }
            super.transferAll(requests);
        }
    }
}
