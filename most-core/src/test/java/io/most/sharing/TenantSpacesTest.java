package io.most.sharing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.BlockDevice;
import io.most.device.DeviceProfile;
import io.most.device.DeviceProfiles;
import io.most.device.EmulatedPm;
import io.most.device.IoOp;
import io.most.device.IoRequest;
import io.most.device.MemoryDevice;
import io.most.device.PmProfiles;
import io.most.errors.ConfigurationException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Tenants' spaces on a shared block device: disjoint, found again by a new set on the same device
 * whatever order the tenants join in, confined (an access outside is a {@link TenantSpaceException}
 * and transfers nothing), charged to their tenant, and refused with a named reason when they cannot be.
 */
class TenantSpacesTest {
    private static final int BLOCK = 4096;
    private static final long MIB = 1 << 20;
    private final DeviceProfile ssd = DeviceProfiles.get("nvme-pcie4", 1);

    private SharedDevices set(BlockDevice device) {
        return new SharedDevices(new EmulatedPm(PmProfiles.get("none")), device, ssd);
    }

    @Test
    void spacesAreDisjointAndFoundAgainByTheNextSetWhateverTheOrder() {
        try (MemoryDevice flash = new MemoryDevice(16 * MIB); Arena arena = Arena.ofConfined()) {
            SharedDevices first = set(flash);
            Tenant a = first.join("a");
            Tenant b = first.join("b");
            BlockDevice aPages = a.space("pages", 2 * MIB);
            BlockDevice bPages = b.space("pages", MIB);
            BlockDevice bLog = b.space("log", 3 * BLOCK);
            fill(aPages, arena, 'a');
            fill(bPages, arena, 'b');
            fill(bLog, arena, 'l');
            long[] aExtent = first.spaces().get("a/pages");
            long[] bExtent = first.spaces().get("b/pages");
            assertTrue(aExtent[0] + aExtent[1] <= bExtent[0] || bExtent[0] + bExtent[1] <= aExtent[0],
                    "spaces overlap");
            aPages.close();
            bPages.close();
            bLog.close();
            assertTrue(flash.isOpen(), "closing a space leaves the shared device open");

            SharedDevices next = set(flash); // the next process: other join order, same spaces
            Tenant b2 = next.join("b");
            Tenant a2 = next.join("a");
            try (BlockDevice bAgain = b2.space("pages", MIB); BlockDevice aAgain = a2.space("pages", 2 * MIB)) {
                assertFilled(aAgain, arena, 'a');
                assertFilled(bAgain, arena, 'b');
                assertArrayEquals(aExtent, next.spaces().get("a/pages"));
                assertTrue(a2.owns(aAgain) && !a2.owns(bAgain) && !b2.owns(aAgain) && !a.owns(aAgain),
                        "a space belongs to its tenant of its set only");
            }
        }
    }

    @Test
    void aTenantCannotReachBeyondItsSpace() {
        try (MemoryDevice flash = new MemoryDevice(8 * MIB); Arena arena = Arena.ofConfined()) {
            SharedDevices set = set(flash);
            Tenant a = set.join("a");
            Tenant b = set.join("b");
            BlockDevice mine = a.space("pages", MIB);
            BlockDevice theirs = b.space("pages", MIB);
            fill(theirs, arena, 'b');
            MemorySegment block = arena.allocate(BLOCK, BLOCK);
            block.fill((byte) 'x');
            long aUse = a.usedPicos(Resource.DEVICE);
            TenantSpaceException read = assertThrows(TenantSpaceException.class, () -> mine.read(MIB, block));
            assertTrue(read.getMessage().contains("tenant 'a'") && read.getMessage().contains("'pages'")
                    && read.getMessage().contains(String.valueOf(MIB)), read.getMessage());
            assertThrows(TenantSpaceException.class, () -> mine.write(MIB - BLOCK, arena.allocate(2 * BLOCK, BLOCK)));
            assertThrows(TenantSpaceException.class, () -> mine.write(-BLOCK, block));
            assertThrows(TenantSpaceException.class, () -> mine.discard(MIB, BLOCK));
            // a batch is refused whole: its first, legal request does not run either
            TenantSpaceException batch = assertThrows(TenantSpaceException.class, () -> mine.transferAll(List.of(
                    new IoRequest(IoOp.WRITE, 0, block), new IoRequest(IoOp.WRITE, 4 * MIB, block))));
            assertTrue(batch.getMessage().startsWith("request 1 of a batch of 2"), batch.getMessage());
            // misalignment stays an ordinary bad argument, not an isolation violation
            IllegalArgumentException misaligned = assertThrows(IllegalArgumentException.class,
                    () -> mine.read(100, block));
            assertFalse(misaligned instanceof TenantSpaceException);
            assertEquals(aUse, a.usedPicos(Resource.DEVICE), "a refused access is charged nothing");
            assertFilled(theirs, arena, 'b');
            assertFilled(mine, arena, (char) 0);
        }
    }

    @Test
    void eachSpaceChargesItsTenantBatchesIncluded() {
        try (MemoryDevice flash = new MemoryDevice(8 * MIB); Arena arena = Arena.ofConfined()) {
            SharedDevices set = set(flash);
            Tenant a = set.join("a");
            Tenant b = set.join("b");
            BlockDevice aSpace = a.space("s", MIB);
            BlockDevice bSpace = b.space("s", MIB);
            MemorySegment block = arena.allocate(BLOCK, BLOCK);
            aSpace.write(0, block);
            aSpace.transferAll(List.of(new IoRequest(IoOp.READ, 0, block), new IoRequest(IoOp.WRITE, BLOCK, block)));
            bSpace.read(0, block);
            long read = Math.round(1e12 / ssd.maxIops(IoOp.READ, BLOCK));
            long write = Math.round(1e12 / ssd.maxIops(IoOp.WRITE, BLOCK));
            assertEquals(2 * write + read, a.usedPicos(Resource.DEVICE));
            assertEquals(read, b.usedPicos(Resource.DEVICE));
        }
    }

    @Test
    void spacesThatCannotBeAreRefusedWithANamedReason() {
        try (MemoryDevice flash = new MemoryDevice(4 * MIB); Arena arena = Arena.ofConfined()) {
            SharedDevices set = set(flash);
            Tenant a = set.join("a");
            BlockDevice open = a.space("pages", MIB);
            IllegalStateException twice = assertThrows(IllegalStateException.class, () -> a.space("pages", MIB));
            assertTrue(twice.getMessage().contains("open already"), twice.getMessage());
            open.close();
            ConfigurationException resized = assertThrows(ConfigurationException.class, () -> a.space("pages", 2 * MIB));
            assertTrue(resized.getMessage().contains("keeps its size") && resized.getMessage().contains(String.valueOf(MIB)),
                    resized.getMessage());
            ConfigurationException full = assertThrows(ConfigurationException.class, () -> a.space("big", 3 * MIB));
            assertTrue(full.getMessage().contains("bytes left"), full.getMessage());
            assertThrows(IllegalArgumentException.class, () -> a.space("odd", 1000));
            assertThrows(IllegalArgumentException.class, () -> a.space(" ", MIB));
            assertThrows(IllegalStateException.class,
                    () -> new SharedDevices(new EmulatedPm(PmProfiles.get("none"))).join("x").space("s", MIB));
        }
        try (MemoryDevice foreign = new MemoryDevice(4 * MIB); Arena arena = Arena.ofConfined()) {
            MemorySegment junk = arena.allocate(BLOCK, BLOCK);
            junk.fill((byte) 7);
            foreign.write(0, junk);
            ConfigurationException e = assertThrows(ConfigurationException.class,
                    () -> set(foreign).join("a").space("s", MIB));
            assertTrue(e.getMessage().contains("no valid MOST space table"), e.getMessage());
        }
    }

    @Test
    void aTableUpdateTornByACrashLeavesThePreviousTable() {
        try (MemoryDevice flash = new MemoryDevice(8 * MIB); Arena arena = Arena.ofConfined()) {
            SharedDevices set = set(flash);
            Tenant a = set.join("a");
            a.space("one", MIB).close();
            long[] one = set.spaces().get("a/one");
            a.space("two", MIB).close(); // the second update writes copy 0 (sequence 2), copy 1 keeps sequence 1
            MemorySegment junk = arena.allocate(BLOCK, BLOCK);
            junk.fill((byte) 7);
            flash.write(0, junk); // as if the process died while writing copy 0: "two" was never handed out
            SharedDevices next = set(flash);
            next.join("a").space("one", MIB).close();
            assertEquals(List.of("a/one"), List.copyOf(next.spaces().keySet()));
            assertArrayEquals(one, next.spaces().get("a/one"));
        }
    }

    private static void fill(BlockDevice device, Arena arena, char c) {
        MemorySegment buffer = arena.allocate(device.capacity(), BLOCK);
        buffer.fill((byte) c);
        device.write(0, buffer);
    }

    private static void assertFilled(BlockDevice device, Arena arena, char c) {
        MemorySegment buffer = arena.allocate(device.capacity(), BLOCK);
        device.read(0, buffer);
        for (long i = 0; i < buffer.byteSize(); i += 512) {
            assertEquals((byte) c, buffer.get(ValueLayout.JAVA_BYTE, i), "byte " + i + " of " + device.name());
        }
    }
}
