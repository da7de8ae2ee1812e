package io.most.examples.h2;

import io.most.errors.ConfigurationException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.h2.store.fs.FilePath;

/**
 * The registry that connects H2 URLs to {@link MostVolume}s. Mounting a volume at a directory makes
 * every H2 path under it ({@code jdbc:h2:most:/that/dir/db}) a file of that volume; the first mount
 * registers the {@code most} scheme with H2 ({@link FilePath#register}).
 *
 * <pre>{@code
 * MostVolume volume = MostVolumes.directFile(Path.of("/data/h2.most"), 1L << 30, VolumeOptions.defaults());
 * MostFileSystem.mount("/db", volume);
 * try (Connection c = DriverManager.getConnection("jdbc:h2:most:/db/shop")) { ... }  // db files in the volume
 * volume.close();                                                                      // also unmounts
 * }</pre>
 *
 * <p>A path under no mounted directory does not exist; creating or opening it fails with a message
 * that says to mount a volume. Thread-safe.
 */
public final class MostFileSystem {
    /** The H2 URL scheme (file name prefix) of MOST volumes. */
    public static final String SCHEME = "most";

    private static final Map<String, MostVolume> MOUNTS = new ConcurrentHashMap<>();
    private static volatile boolean registered;

    private MostFileSystem() {
    }

    /**
     * Mounts {@code volume} at {@code directory} (an absolute path such as {@code /db}).
     *
     * @throws ConfigurationException if the directory is not absolute, something is mounted there
     *                                already, or the volume is mounted elsewhere or closed
     */
    public static synchronized void mount(String directory, MostVolume volume) {
        String dir = normalize(directory);
        if (!volume.isOpen()) {
            throw new ConfigurationException("cannot mount closed volume " + volume.name());
        }
        MostVolume present = MOUNTS.get(dir);
        if (present != null) {
            throw new ConfigurationException("'" + dir + "' has volume " + present.name() + " mounted already; unmount it first");
        }
        for (Map.Entry<String, MostVolume> e : MOUNTS.entrySet()) {
            if (e.getValue() == volume) {
                throw new ConfigurationException("volume " + volume.name() + " is mounted at '" + e.getKey() + "' already");
            }
        }
        register();
        MOUNTS.put(dir, volume);
    }

    /** Unmounts whatever is mounted at {@code directory} and returns it (still open), if anything. */
    public static synchronized Optional<MostVolume> unmount(String directory) {
        return Optional.ofNullable(MOUNTS.remove(normalize(directory)));
    }

    /** Removes every mount of {@code volume} (called when it closes). */
    static synchronized void unmount(MostVolume volume) {
        MOUNTS.values().removeIf(v -> v == volume);
    }

    /** The volume mounted exactly at {@code directory}, if any. */
    public static Optional<MostVolume> volumeAt(String directory) {
        return Optional.ofNullable(MOUNTS.get(normalize(directory)));
    }

    /** The JDBC URL of database {@code name} in the volume mounted at {@code directory}. */
    public static String jdbcUrl(String directory, String name) {
        return "jdbc:h2:" + SCHEME + ":" + normalize(directory) + "/" + name;
    }

    /** Registers the {@code most} scheme with H2 (idempotent; {@link #mount} does it). */
    public static void register() {
        if (!registered) {
            synchronized (MostFileSystem.class) {
                if (!registered) {
                    FilePath.register(new MostFilePath());
                    registered = true;
                }
            }
        }
    }

    /** Where an absolute path lies: its volume and its path relative to the mount point. */
    record Location(MostVolume volume, String mountPoint, String relative) {
    }

    /** The mount covering {@code absolutePath} (the deepest one), if any. */
    static Optional<Location> locate(String absolutePath) {
        for (String dir = absolutePath; dir != null; dir = parent(dir)) {
            MostVolume volume = MOUNTS.get(dir);
            if (volume != null) {
                String rel = dir.equals(absolutePath) ? "" : absolutePath.substring(dir.equals("/") ? 1 : dir.length() + 1);
                return Optional.of(new Location(volume, dir, rel));
            }
        }
        return Optional.empty();
    }

    /** The parent of a normalized absolute path, or null for the root. */
    static String parent(String path) {
        if (path.equals("/")) {
            return null;
        }
        int slash = path.lastIndexOf('/');
        return slash <= 0 ? "/" : path.substring(0, slash);
    }

    /**
     * Normalizes a path: '\' to '/', no scheme, no repeated or trailing '/', no "." or ".." segments.
     *
     * @throws ConfigurationException if the path is not absolute
     */
    static String normalize(String path) {
        String p = path.replace('\\', '/');
        if (p.startsWith(SCHEME + ":")) {
            p = p.substring(SCHEME.length() + 1);
        }
        if (!p.startsWith("/")) {
            throw new ConfigurationException("MOST H2 paths must be absolute (start with '/'): '" + path + "'");
        }
        java.util.ArrayDeque<String> parts = new java.util.ArrayDeque<>();
        for (String part : p.split("/")) {
            if (part.isEmpty() || part.equals(".")) {
                continue;
            }
            if (part.equals("..")) {
                parts.pollLast();
            } else {
                parts.addLast(part);
            }
        }
        return "/" + String.join("/", parts);
    }
}
