package io.most.it;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.most.device.DirectFileDevice;
import io.most.device.PmemDevice;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The device files must be really allocated on open, so that a full file system fails the open
 * (DeviceFullException) instead of a later write: for a mapped PM file a store into a hole on a full
 * file system is a SIGBUS that kills the JVM. Checked through the allocated size reported by
 * {@code stat}.
 */
class PmemPreallocationTest {
    private static final long CAPACITY = 16L << 20;

    @TempDir
    Path dir;

    @Test
    void directFileDeviceAllocatesItsWholeFile() throws Exception {
        Path file = dir.resolve("direct.dev");
        DirectFileDevice.open(file, CAPACITY).close();
        long allocated = allocatedBytes(file);
        assertTrue(allocated >= CAPACITY, file + " has " + allocated + " of " + CAPACITY + " bytes allocated");
    }

    @Test
    void pmemDeviceAllocatesItsWholeFile() throws Exception {
        Path file = dir.resolve("pm.dev");
        PmemDevice.open(file, CAPACITY).close();
        long allocated = allocatedBytes(file);
        assertTrue(allocated >= CAPACITY, file + " has " + allocated + " of " + CAPACITY
                + " bytes allocated: a store into a hole on a full file system would SIGBUS the JVM");
    }

    /** Bytes of disk allocated to {@code file}, from {@code stat -c "%b %B"} (blocks times block unit). */
    private static long allocatedBytes(Path file) throws InterruptedException {
        String out;
        try {
            Process stat = new ProcessBuilder("stat", "-c", "%b %B", file.toString()).redirectErrorStream(true).start();
            out = new String(stat.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assumeTrue(stat.waitFor() == 0, "stat failed: " + out);
        } catch (IOException e) {
            assumeTrue(false, "no stat command: " + e);
            return -1;
        }
        String[] f = out.split(" ");
        return Long.parseLong(f[0]) * Long.parseLong(f[1]);
    }
}
