package io.most;

import java.lang.management.ManagementFactory;

/** What this machine can hold, for configuration checks that must fail before an allocation does. */
final class SystemLimits {
    private SystemLimits() {
    }

    /** Physical memory in bytes, or {@link Long#MAX_VALUE} where the JVM cannot tell. */
    static long physicalMemory() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            long total = os.getTotalMemorySize();
            return total > 0 ? total : Long.MAX_VALUE;
        }
        return Long.MAX_VALUE;
    }
}
