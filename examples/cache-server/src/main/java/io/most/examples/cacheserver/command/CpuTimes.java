package io.most.examples.cacheserver.command;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/** The process's CPU time for {@code INFO cpu}. */
final class CpuTimes {
    private static final Path PROC_STAT = Path.of("/proc/self/stat");
    /** Linux reports times in clock ticks; 100 per second on every common kernel configuration. */
    private static final double TICKS_PER_SECOND = 100.0;

    private CpuTimes() {
    }

    /**
     * {system, user} seconds: from {@code /proc/self/stat} (fields 14 and 15, utime and stime) where it
     * exists, else the JVM's process CPU time as user time.
     */
    static double[] systemAndUserSeconds() {
        try {
            String stat = Files.readString(PROC_STAT);
            // the command name (field 2) is in parentheses and may hold spaces: count fields after it
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            double user = Long.parseLong(f[11]) / TICKS_PER_SECOND;
            double system = Long.parseLong(f[12]) / TICKS_PER_SECOND;
            return new double[] {system, user};
        } catch (IOException | RuntimeException notLinux) {
            long nanos = ManagementFactory.getOperatingSystemMXBean()
                    instanceof com.sun.management.OperatingSystemMXBean os ? os.getProcessCpuTime() : 0;
            return new double[] {0, Math.max(nanos, 0) / 1e9};
        }
    }
}
