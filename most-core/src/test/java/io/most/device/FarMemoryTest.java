package io.most.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.most.errors.ConfigurationException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Far memory bound to a NUMA node: the kernel places every page on the node asked for (checked twice,
 * with get_mempolicy and in /proc/self/numa_maps), an absent node is a named error listing the nodes
 * present, and the mapping cannot be touched once closed. This machine has one node, so binding is
 * tested on node 0; a CXL expander would be another node of the same list.
 */
class FarMemoryTest {
    private static final long BYTES = 1L << 20;

    @TempDir
    Path dir;

    private static void assumeNuma() {
        assumeTrue(System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")
                && FarMemory.memoryNodes().contains(0), "no NUMA node 0 listed in /sys/devices/system/node");
    }

    @Test
    void bindsEveryPageToTheNodeAskedFor() throws IOException {
        assumeNuma();
        try (FarMemory memory = FarMemory.onNode(0, BYTES)) {
            MemorySegment segment = memory.segment();
            assertEquals(BYTES, segment.byteSize());
            assertEquals(0, memory.node());
            for (long at = 0; at < BYTES; at += 4096) {
                segment.set(ValueLayout.JAVA_LONG, at, at ^ 0x5A5A);
            }
            for (long at = 0; at < BYTES; at += 4096) {
                assertEquals(at ^ 0x5A5A, segment.get(ValueLayout.JAVA_LONG, at));
            }
            for (long at : new long[] {0, BYTES / 2, BYTES - 4096}) {
                assertEquals(0, memory.nodeOfPage(at), "get_mempolicy: node of the page at " + at);
            }
            String line = numaMapsLine(segment.address());
            assertTrue(line.contains(" bind:0"), "memory policy in /proc/self/numa_maps: " + line);
            assertTrue(line.contains(" N0=" + BYTES / 4096), "every page on node 0 (populated at open): " + line);
            assertTrue(!line.matches(".* N[1-9][0-9]*=.*"), "no page on another node: " + line);
        }
    }

    /** The mapping's line of /proc/self/numa_maps, which lists each mapping by its start address. */
    private static String numaMapsLine(long address) throws IOException {
        String start = Long.toHexString(address) + " ";
        List<String> lines = Files.readAllLines(Path.of("/proc/self/numa_maps"));
        return lines.stream().filter(l -> l.startsWith(start)).findFirst()
                .orElseThrow(() -> new AssertionError("no mapping at " + start + " in /proc/self/numa_maps"));
    }

    @Test
    void anAbsentNodeIsANamedErrorListingTheNodesPresent() {
        assumeNuma();
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> FarMemory.onNode(99, BYTES));
        assertTrue(e.getMessage().contains("NUMA node 99 does not exist or has no memory"), e.getMessage());
        assertTrue(e.getMessage().contains("nodes with memory on this machine: " + FarMemory.memoryNodes()),
                e.getMessage());
        assertThrows(ConfigurationException.class, () -> FarMemory.onNode(-1, BYTES));
        assertThrows(ConfigurationException.class, () -> FarMemory.checkNode(99));
    }

    @Test
    void aNodeWithLessMemoryThanAskedIsRefusedBeforeMapping() {
        assumeNuma();
        long tooMuch = (NumaNodes.totalBytes(0).orElse(1L << 40) + (1L << 30)) / 4096 * 4096;
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> FarMemory.onNode(0, tooMuch));
        assertTrue(e.getMessage().contains("does not fit NUMA node 0"), e.getMessage());
    }

    @Test
    void sizesThatAreNotWholePagesAreRefused() {
        assertThrows(ConfigurationException.class, () -> FarMemory.onNode(0, 0));
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> FarMemory.onNode(0, 4097));
        assertTrue(e.getMessage().contains("multiple of 4096"), e.getMessage());
    }

    @Test
    void aClosedMappingCannotBeTouched() {
        assumeNuma();
        FarMemory memory = FarMemory.onNode(0, BYTES);
        MemorySegment segment = memory.segment();
        memory.close();
        memory.close(); // idempotent
        assertThrows(IllegalStateException.class, () -> segment.get(ValueLayout.JAVA_LONG, 0));
    }

    @Test
    void aDeviceDaxStandInIsMappedSharedAndItsAbsenceIsNamed() throws IOException {
        assumeNuma();
        Path missing = dir.resolve("dax9.9");
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> FarMemory.devdax(missing, BYTES));
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
        assertThrows(ConfigurationException.class, () -> FarMemory.devdax(dir, BYTES));

        Path standIn = dir.resolve("dax0.0");
        Files.write(standIn, new byte[(int) BYTES / 2]);
        e = assertThrows(ConfigurationException.class, () -> FarMemory.devdax(standIn, BYTES));
        assertTrue(e.getMessage().contains("less than the " + BYTES), e.getMessage());

        Files.write(standIn, new byte[(int) BYTES]);
        try (FarMemory memory = FarMemory.devdax(standIn, BYTES)) {
            assertEquals(-1, memory.node());
            memory.segment().set(ValueLayout.JAVA_LONG, BYTES - 8, 42L);
            assertEquals(42L, memory.segment().get(ValueLayout.JAVA_LONG, BYTES - 8));
        }
    }

    @Test
    void parsesTheKernelsNodeLists() {
        assertEquals(List.of(0, 1, 2, 4), NumaNodes.parseList("0-2,4\n"));
        assertEquals(List.of(0), NumaNodes.parseList("0"));
        assertEquals(List.of(), NumaNodes.parseList("\n"));
    }
}
