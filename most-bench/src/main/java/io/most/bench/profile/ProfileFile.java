package io.most.bench.profile;

import io.most.bench.UsageException;
import io.most.device.DeviceProfile;
import io.most.device.IoOp;
import io.most.device.PmProfile;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@link DeviceProfile} in a {@code .properties} file: one key per record component, named as in
 * the record ({@code readLatencyNanos=41000}), at scale 1 (the device's own speed). {@code profile
 * --save} writes it; {@code run --hierarchy profile:FILE} reads it and emulates the device at the
 * bench's common scale, like the shipped profiles.
 *
 * <p>With {@code profile --pm} the file also holds the PM measurements ({@link PmMaxIops}): one
 * {@code pm.KIND.SIZE.maxIops} and {@code pm.KIND.SIZE.qd1Nanos} per kind ({@code load},
 * {@code store}) and size, and {@code pm.maxThreads}; {@code run --pm-profile profile:FILE} emulates
 * the {@link PmProfile} they map to. Files written before PM was measured (with the retired
 * {@code pmLoadNanosPer4KiB} and {@code pmStoreNanosPer4KiB} keys) still load: those keys are ignored.
 */
public final class ProfileFile {
    /** The keys, in the order they are written. */
    static final List<String> KEYS = List.of("name", "source", "readLatencyNanos", "writeLatencyNanos",
            "transferNanosPerKiB", "channels", "readBandwidth", "writeBandwidth", "writeInterference",
            "spikeProbability", "spikeNanos");
    static final String PM_MAX_THREADS = "pm.maxThreads";
    private static final Pattern PM_KEY = Pattern.compile("pm\\.(load|store)\\.(\\d+)\\.(maxIops|qd1Nanos)");

    private ProfileFile() {
    }

    /**
     * Writes {@code profile} to {@code file}, with {@code comment} lines ahead of it.
     *
     * @throws UncheckedIOException if the file cannot be written
     */
    public static void save(DeviceProfile profile, Path file, List<String> comment) {
        save(profile, Optional.empty(), file, comment);
    }

    /**
     * Writes {@code profile} and, if present, the PM measurements {@code pm} to {@code file}, with
     * {@code comment} lines ahead of them.
     *
     * @throws UncheckedIOException if the file cannot be written
     */
    public static void save(DeviceProfile profile, Optional<PmMaxIops> pm, Path file, List<String> comment) {
        StringBuilder s = new StringBuilder();
        comment.forEach(line -> s.append("# ").append(line.replaceAll("[\r\n]", " ")).append('\n'));
        // Properties.store would reorder the keys and add a date; write them in record order instead
        List<Object> values = List.of(profile.name(), profile.source(), profile.readLatencyNanos(),
                profile.writeLatencyNanos(), profile.transferNanosPerKiB(), profile.channels(), profile.readBandwidth(),
                profile.writeBandwidth(), profile.writeInterference(), profile.spikeProbability(), profile.spikeNanos());
        for (int i = 0; i < KEYS.size(); i++) {
            s.append(KEYS.get(i)).append('=').append(escape(String.valueOf(values.get(i)))).append('\n');
        }
        pm.ifPresent(table -> {
            s.append("# PM on a mapped file: MaxIOPS (best over the thread counts) and one-thread mean ns of random"
                    + " size-aligned loads and persisted stores (NyxCache's cost model: an access costs 1/MaxIOPS)\n");
            s.append(PM_MAX_THREADS).append('=').append(table.maxThreads()).append('\n');
            for (IoOp op : List.of(IoOp.READ, IoOp.WRITE)) {
                for (int size : table.sizes(op)) {
                    String key = "pm." + PmProbeRow.kindName(op) + "." + size + ".";
                    s.append(key).append("maxIops=").append(table.maxIops(op, size)).append('\n');
                    s.append(key).append("qd1Nanos=").append(table.qd1Nanos(op, size)).append('\n');
                }
            }
        });
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
        Properties p = read(file);
        try {
            return new DeviceProfile(text(p, file, "name"), text(p, file, "source"),
                    whole(p, file, "readLatencyNanos"), whole(p, file, "writeLatencyNanos"),
                    whole(p, file, "transferNanosPerKiB"), Math.toIntExact(whole(p, file, "channels")),
                    whole(p, file, "readBandwidth"), whole(p, file, "writeBandwidth"),
                    fraction(p, file, "writeInterference"), fraction(p, file, "spikeProbability"),
                    whole(p, file, "spikeNanos"));
        } catch (ArithmeticException | IllegalArgumentException e) {
            // the record's own checks: a non-positive latency, channels or bandwidth
            throw new UsageException("profile file '" + file + "': " + e.getMessage());
        }
    }

    /**
     * The PM measurements in {@code file}, if {@code profile --pm} saved any.
     *
     * @throws UsageException naming the file and the key if it is missing, unreadable, or its PM keys are
     *                        incomplete or not numbers
     */
    public static Optional<PmMaxIops> loadPm(Path file) {
        Properties p = read(file);
        Map<IoOp, SortedMap<Integer, Double>> maxIops = new LinkedHashMap<>();
        Map<IoOp, SortedMap<Integer, Double>> qd1 = new LinkedHashMap<>();
        for (IoOp op : List.of(IoOp.READ, IoOp.WRITE)) {
            maxIops.put(op, new TreeMap<>());
            qd1.put(op, new TreeMap<>());
        }
        boolean any = false;
        for (String key : p.stringPropertyNames()) {
            Matcher m = PM_KEY.matcher(key);
            if (!m.matches()) {
                continue;
            }
            any = true;
            IoOp op = m.group(1).equals("load") ? IoOp.READ : IoOp.WRITE;
            int size;
            try {
                size = Integer.parseInt(m.group(2));
            } catch (NumberFormatException e) {
                throw new UsageException("profile file '" + file + "': " + key + " names no size in bytes");
            }
            (m.group(3).equals("maxIops") ? maxIops : qd1).get(op).put(size, fraction(p, file, key));
        }
        if (!any) {
            return Optional.empty();
        }
        try {
            return Optional.of(new PmMaxIops(maxIops, qd1, Math.toIntExact(whole(p, file, PM_MAX_THREADS))));
        } catch (ArithmeticException | IllegalArgumentException e) {
            throw new UsageException("profile file '" + file + "': " + e.getMessage());
        }
    }

    /**
     * The {@link PmProfile} the PM measurements in {@code file} map to, at scale 1, named and sourced
     * as the file's device profile.
     *
     * @throws UsageException if the file has no PM measurements or they are unusable
     */
    public static PmProfile loadPmProfile(Path file) {
        PmMaxIops table = loadPm(file).orElseThrow(() -> new UsageException("profile file '" + file + "' has no PM"
                + " measurements (pm.* keys); create them with 'profile <dir on the PM> --pm --save "
                + file.getFileName() + "'"));
        Properties p = read(file);
        try {
            return table.toProfile(text(p, file, "name"), "PM " + text(p, file, "source"));
        } catch (IllegalArgumentException e) {
            throw new UsageException("profile file '" + file + "': " + e.getMessage());
        }
    }

    private static Properties read(Path file) {
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
        return p;
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
