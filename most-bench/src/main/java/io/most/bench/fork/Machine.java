package io.most.bench.fork;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The machine a report was measured on: cores, memory, JDK and heap. Every ratio we publish depends on
 * them, so every report states them.
 */
public final class Machine {
    private Machine() {
    }

    /** The machine as JSON fields. */
    public static Map<String, Object> fields() {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("cores", Runtime.getRuntime().availableProcessors());
        long memory = physicalMemory();
        if (memory > 0) {
            f.put("memory_bytes", memory);
        }
        f.put("jdk", System.getProperty("java.vm.name") + " " + Runtime.version());
        f.put("max_heap_bytes", Runtime.getRuntime().maxMemory());
        f.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        return f;
    }

    /** One line for the console. */
    public static String describe() {
        long memory = physicalMemory();
        return String.format(Locale.ROOT, "machine: %d cores, %s memory, %s %s, heap %.1f GiB",
                Runtime.getRuntime().availableProcessors(),
                memory > 0 ? String.format(Locale.ROOT, "%.1f GiB", memory / (double) (1L << 30)) : "unknown",
                System.getProperty("java.vm.name"), Runtime.version(),
                Runtime.getRuntime().maxMemory() / (double) (1L << 30));
    }

    private static long physicalMemory() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getTotalMemorySize() : -1;
    }
}
