package io.most.device;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The machine's NUMA nodes as sysfs lists them ({@code /sys/devices/system/node}): which nodes have
 * memory, and how much. A CXL memory expander appears there as a node with memory and no CPUs.
 */
final class NumaNodes {
    private static final Path ROOT = Path.of("/sys/devices/system/node");
    private static final Pattern MEM_TOTAL = Pattern.compile("MemTotal:\\s+(\\d+) kB");

    private NumaNodes() {
    }

    /** The nodes with memory, ascending; empty where sysfs has no node directory (not Linux). */
    static List<Integer> withMemory() {
        String list = read(ROOT.resolve("has_memory"));
        if (list == null) {
            list = read(ROOT.resolve("online"));
        }
        return list == null ? List.of() : parseList(list);
    }

    /** The memory of {@code node} in bytes (its {@code meminfo}'s MemTotal), or empty if unknown. */
    static OptionalLong totalBytes(int node) {
        String info = read(ROOT.resolve("node" + node).resolve("meminfo"));
        if (info == null) {
            return OptionalLong.empty();
        }
        Matcher m = MEM_TOTAL.matcher(info);
        return m.find() ? OptionalLong.of(Long.parseLong(m.group(1)) * 1024) : OptionalLong.empty();
    }

    /** Parses a kernel cpu/node list such as {@code 0-1,3}. */
    static List<Integer> parseList(String list) {
        List<Integer> nodes = new ArrayList<>();
        for (String part : list.trim().split(",")) {
            if (part.isEmpty()) {
                continue;
            }
            int dash = part.indexOf('-');
            int from = Integer.parseInt(dash < 0 ? part : part.substring(0, dash));
            int to = dash < 0 ? from : Integer.parseInt(part.substring(dash + 1));
            for (int n = from; n <= to; n++) {
                nodes.add(n);
            }
        }
        return List.copyOf(nodes);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException | SecurityException e) {
            return null;
        }
    }
}
