package io.most.examples.cacheserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.examples.cacheserver.command.TenantCaches;
import io.most.sharing.Resource;
import io.most.sharing.Tenant;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tenant held back by its throttle holds its own commands only: on a server with one event loop, a
 * tenant whose flash accesses are stalled waits on its own threads while another tenant's commands on
 * the same loop are answered, and it finishes once resumed. No timing: the stalled tenant's thread is
 * seen waiting in its throttle while the other tenant's replies arrive.
 */
class TenantThrottleTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS) // a hang guard, not a measurement
    void aStalledTenantHoldsNeitherTheEventLoopNorTheOtherTenant() throws Exception {
        Path acl = dir.resolve("users.acl");
        Files.writeString(acl, """
                user default on >admin ~* &* +@all
                user slow on >pw ~* +@all
                user fast on >pw ~* +@all
                """);
        SharingSettings sharing = SharingSettings.NONE
                .withTenant(TenantSettings.parse("slow:dram=256k,ssd=4m,regions=0"))
                .withTenant(TenantSettings.parse("fast:dram=256k,ssd=4m,regions=0"));
        // one event loop for every connection; no background cleaner: a SET that needs a frame writes one back
        ServerSettings settings = TestServers.small(dir.resolve("most")).threads(1).dirtyRatio(1)
                .security(SecuritySettings.DEFAULT.withAclFile(acl)).sharing(sharing).build();
        try (CacheServer server = CacheServer.start(settings);
             RespClient slow = new RespClient(server.address().getPort());
             RespClient fast = new RespClient(server.address().getPort())) {
            assertEquals("+OK\r\n", slow.callText("AUTH", "slow", "pw"));
            assertEquals("+OK\r\n", fast.callText("AUTH", "fast", "pw"));
            TenantCaches tenants = server.tenants();
            Tenant slowTenant = tenants.entries().stream().filter(e -> e.settings().user().equals("slow")).findFirst()
                    .orElseThrow().tenant();
            slowTenant.throttle(Resource.DEVICE).stall();
            AtomicInteger slowReplies = new AtomicInteger();
            Thread writer = Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; i < 20_000; i++) {
                        slow.callText("SET", "key" + i, "v".repeat(100));
                        slowReplies.incrementAndGet();
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            awaitTenantThreadInThrottle("most-tenant-slow-", writer);
            int heldAt = slowReplies.get();
            for (int i = 0; i < 200; i++) {
                assertEquals("+OK\r\n", fast.callText("SET", "key" + i, "w" + i));
                assertEquals("$" + ("w" + i).length() + "\r\nw" + i + "\r\n", fast.callText("GET", "key" + i));
            }
            assertEquals(heldAt, slowReplies.get(), "a stalled tenant's command was answered");
            assertTrue(writer.isAlive());
            slowTenant.throttle(Resource.DEVICE).resume();
            writer.join();
            assertEquals(20_000, slowReplies.get());
            assertEquals("$100\r\n" + "v".repeat(100) + "\r\n", slow.callText("GET", "key7"));
        }
    }

    /** Waits until a thread of the tenant's pool waits in a throttle, failing if the writer finished first. */
    private static void awaitTenantThreadInThrottle(String prefix, Thread writer) throws InterruptedException {
        while (true) {
            for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
                if (e.getKey().getName().startsWith(prefix) && e.getKey().getState() == Thread.State.WAITING
                        && Arrays.stream(e.getValue()).anyMatch(f -> f.getClassName().equals("io.most.sharing.Throttle"))) {
                    return;
                }
            }
            assertTrue(writer.isAlive(), "every SET of the stalled tenant was answered: none reached the device");
            Thread.sleep(5);
        }
    }
}
