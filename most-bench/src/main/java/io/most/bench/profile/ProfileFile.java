package io.most.bench.profile;

import io.most.bench.UsageException;
import io.most.device.DeviceProfile;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/**
 * A {@link DeviceProfile} in a {@code .properties} file: one key per record component, named as in
 * the record ({@code readLatencyNanos=41000}), at scale 1 (the device's own speed). {@code profile
 * --save} writes it; {@code run --hierarchy profile:FILE} reads it and emulates the device at the
 * bench's common scale, like the shipped profiles.
 */
public final class ProfileFile {
    /** The keys, in the order they are written. */
    static final List<String> KEYS = List.of("name", "source", "readLatencyNanos", "writeLatencyNanos",
            "transferNanosPerKiB", "channels", "readBandwidth", "writeBandwidth", "writeInterference",
            "spikeProbability", "spikeNanos", "pmLoadNanosPer4KiB", "pmStoreNanosPer4KiB");

    private ProfileFile() {
    }

    /**
     * Writes {@code profile} to {@code file}, with {@code comment} lines ahead of it.
     *
     * @throws UncheckedIOException if the file cannot be written
     */
    public static void save(DeviceProfile profile, Path file, List<String> comment) {
        StringBuilder s = new StringBuilder();
        comment.forEach(line -> s.append("# ").append(line.replaceAll("[\r\n]", " ")).append('\n'));
        // Properties.store would reorder the keys and add a date; write them in record order instead
        List<Object> values = List.of(profile.name(), profile.source(), profile.readLatencyNanos(),
                profile.writeLatencyNanos(), profile.transferNanosPerKiB(), profile.channels(), profile.readBandwidth(),
                profile.writeBandwidth(), profile.writeInterference(), profile.spikeProbability(), profile.spikeNanos(),
                profile.pmLoadNanosPer4KiB(), profile.pmStoreNanosPer4KiB());
        for (int i = 0; i < KEYS.size(); i++) {
            s.append(KEYS.get(i)).append('=').append(escape(String.valueOf(values.get(i)))).append('\n');
        }
        try {
            Files.writeString(file, s, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the profile to " + file + ": " + e.getMessage(), e);
        }
    }

    /** Escapes what {@link Properties#load} would read differently; non-Latin-1 as unicode escapes. */
    private static String escape(String value) {
        StringBuilder s = new StringBuilder();
        for (char c : value.toCharArray()) {
            switch (c) {
                case '\\' -> s.append("\\\\");
                case '\n' -> s.append("\\n");
                case '\r' -> s.append("\\r");
                case '\t' -> s.append("\\t");
                default -> {
                    if (c < 0x20 || c > 0xff) {
                        s.append(String.format("\\u%04x", (int) c));
                    } else {
                        s.append(c);
                    }
                }
            }
        }
        return s.toString();
    }

    /**
     * Reads the profile in {@code file}.
     *
     * @throws UsageException naming the file and the key if it is missing, unreadable, lacks a key or
     *                        holds a value the profile rejects
     */
    public static DeviceProfile load(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new UsageException("profile file '" + file + "' does not exist; create one with"
                    + " 'profile <dir> --save " + file.getFileName() + "'");
        }
        Properties p = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
            p.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new UsageException("cannot read profile file '" + file + "': " + e.getMessage());
        }
        try {
            return new DeviceProfile(text(p, file, "name"), text(p, file, "source"),
                    whole(p, file, "readLatencyNanos"), whole(p, file, "writeLatencyNanos"),
                    whole(p, file, "transferNanosPerKiB"), Math.toIntExact(whole(p, file, "channels")),
                    whole(p, file, "readBandwidth"), whole(p, file, "writeBandwidth"),
                    fraction(p, file, "writeInterference"), fraction(p, file, "spikeProbability"),
                    whole(p, file, "spikeNanos"), whole(p, file, "pmLoadNanosPer4KiB"),
                    whole(p, file, "pmStoreNanosPer4KiB"));
        } catch (ArithmeticException | IllegalArgumentException e) {
            // the record's own checks: a non-positive latency, channels or bandwidth
            throw new UsageException("profile file '" + file + "': " + e.getMessage());
        }
    }

    private static String text(Properties p, Path file, String key) {
        String value = p.getProperty(key);
        if (value == null || value.isBlank()) {
            throw new UsageException("profile file '" + file + "' has no " + key + "; it needs every key of: "
                    + String.join(", ", KEYS));
        }
        return value.trim();
    }

    private static long whole(Properties p, Path file, String key) {
        String value = text(p, file, key);
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new UsageException("profile file '" + file + "': " + key + "=" + value + " is not a whole number");
        }
    }

    private static double fraction(Properties p, Path file, String key) {
        String value = text(p, file, key);
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new UsageException("profile file '" + file + "': " + key + "=" + value + " is not a number");
        }
    }
}
