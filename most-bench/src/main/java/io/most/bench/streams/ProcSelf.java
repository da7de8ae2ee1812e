package io.most.bench.streams;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * This process's resident memory and disk traffic from Linux's {@code /proc/self}: {@code VmRSS} of
 * {@code status} (resident pages: heap, off-heap buffers, RocksDB's native allocations, mapped files'
 * resident pages) and {@code read_bytes} / {@code write_bytes} of {@code io} (bytes this process caused
 * to be read from / sent to the storage layer, page-cache hits and tmpfs excluded). Parsing is apart
 * from reading so that it is tested on fixed text.
 */
final class ProcSelf {
    private static final Path STATUS = Path.of("/proc/self/status");
    private static final Path IO = Path.of("/proc/self/io");

    private ProcSelf() {
    }

    /** Resident bytes now; empty where there is no {@code /proc}. */
    static OptionalLong rssBytes() {
        return read(STATUS).stream().mapToLong(ProcSelf::parseRssBytes).filter(v -> v >= 0).findFirst();
    }

    /** Bytes written to storage so far; empty where there is no {@code /proc/self/io}. */
    static OptionalLong writeBytes() {
        return read(IO).stream().mapToLong(t -> parseIoField(t, "write_bytes")).filter(v -> v >= 0).findFirst();
    }

    /** Bytes read from storage so far; empty where there is no {@code /proc/self/io}. */
    static OptionalLong readBytes() {
        return read(IO).stream().mapToLong(t -> parseIoField(t, "read_bytes")).filter(v -> v >= 0).findFirst();
    }

    /** {@code VmRSS} of a {@code status} text in bytes, -1 if absent. */
    static long parseRssBytes(String status) {
        for (String line : status.split("\n")) {
            if (line.startsWith("VmRSS:")) {
                String[] parts = line.substring("VmRSS:".length()).trim().split("\\s+");
                long value = Long.parseLong(parts[0]);
                return parts.length > 1 && parts[1].equalsIgnoreCase("kB") ? value * 1024 : value;
            }
        }
        return -1;
    }

    /** The field {@code name} of an {@code io} text, -1 if absent. */
    static long parseIoField(String io, String name) {
        for (String line : io.split("\n")) {
            if (line.startsWith(name + ":")) {
                return Long.parseLong(line.substring(name.length() + 1).trim());
            }
        }
        return -1;
    }

    private static java.util.Optional<String> read(Path file) {
        try {
            return java.util.Optional.of(Files.readString(file));
        } catch (IOException | SecurityException e) {
            return java.util.Optional.empty();
        }
    }
}
