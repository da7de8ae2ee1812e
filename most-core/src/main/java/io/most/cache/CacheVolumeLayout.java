package io.most.cache;

import io.most.PageStore;
import io.most.device.BlockDevice;
import io.most.device.DeviceSlice;
import io.most.errors.ConfigurationException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Where the flash of one or more caches lives on a single block device, typically a MOST
 * {@link io.most.tier.TieredVolume} (the Cerberus arrangement: CacheLib's two flash engines on one tiered
 * device). Each cache gets two consecutive ranges in the order given, its bucket pages and then its regions,
 * sized by its {@link CacheConfig} and aligned to {@value #ALIGN} bytes.
 *
 * <p>A cache finds its items by their offsets, so a restart must lay the device out exactly as before:
 * {@link #recordIn} records the layout in {@value #FILE} in a directory the first time, and refuses a later
 * layout that differs (other caches, another order, other sizes) instead of reading one cache's flash as
 * another's. Immutable and thread-safe.
 */
public final class CacheVolumeLayout {
    /** The file in the caches' directory that records the layout. */
    public static final String FILE = "volume-layout";
    /** The alignment of every range: the caches' devices are 4 KiB-block devices. */
    public static final int ALIGN = 4096;

    /** Per cache: bucket pages' start and bytes, regions' start and bytes (0 bytes: no large items). */
    private final Map<String, long[]> ranges;
    private final long bytes;

    private CacheVolumeLayout(Map<String, long[]> ranges, long bytes) {
        this.ranges = ranges;
        this.bytes = bytes;
    }

    /**
     * The layout of {@code caches}, in their iteration order (use an ordered map).
     *
     * @throws IllegalArgumentException if {@code caches} is empty
     */
    public static CacheVolumeLayout of(Map<String, CacheConfig> caches) {
        if (caches.isEmpty()) {
            throw new IllegalArgumentException("a cache volume layout needs at least one cache");
        }
        Map<String, long[]> ranges = new LinkedHashMap<>();
        long end = 0;
        for (Map.Entry<String, CacheConfig> e : caches.entrySet()) {
            CacheConfig config = e.getValue();
            long small = roundUp(PageStore.blockDeviceBytesFor(config.buckets() + 1, config.pageSize()));
            long large = config.largeItemBytes() > 0 ? roundUp(ALIGN + config.largeItemBytes()) : 0;
            ranges.put(e.getKey(), new long[] {end, small, end + small, large});
            end += small + large;
        }
        return new CacheVolumeLayout(ranges, end);
    }

    /** Bytes of the device the layout needs. */
    public long bytes() {
        return bytes;
    }

    /**
     * Checks that {@code device} can hold this layout.
     *
     * @throws ConfigurationException if the device is too small or its blocks are larger than {@value #ALIGN} bytes
     */
    public void checkDevice(BlockDevice device) {
        if (device.capacity() < bytes || device.blockSize() > ALIGN || ALIGN % device.blockSize() != 0) {
            throw new ConfigurationException("the caches " + ranges.keySet() + " need " + bytes + " bytes of the"
                    + " device '" + device.name() + "' in blocks of at most " + ALIGN + " bytes; it holds "
                    + device.capacity() + " in blocks of " + device.blockSize() + ": enlarge the device or make the"
                    + " caches smaller");
        }
    }

    /**
     * Checks that {@code directory} records this layout or none, and records it when none is (atomically:
     * a crash leaves no file or the whole file). Call it once the device is known to hold the layout
     * ({@link #checkDevice}), so that a refused start records nothing.
     *
     * @throws ConfigurationException if another layout is recorded (the message shows both)
     * @throws UncheckedIOException if the record cannot be read or written
     */
    public void recordIn(Path directory) {
        Path file = directory.resolve(FILE);
        String layout = text();
        try {
            if (Files.exists(file)) {
                String recorded = Files.readString(file);
                if (!recorded.equals(layout)) {
                    throw new ConfigurationException("the caches' volume was laid out for other caches or sizes ("
                            + file + " records:\n" + recorded + "now:\n" + layout + "): restore the caches (the same"
                            + " names in the same order) and their sizes, or delete the volume's device files and "
                            + file + " to start empty");
                }
                return;
            }
            Files.createDirectories(directory);
            Path temp = directory.resolve(FILE + ".tmp");
            Files.writeString(temp, layout);
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or record the caches' volume layout " + file + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * New views of cache {@code name}'s ranges of {@code device}: its bucket pages' device and its regions'
     * device (null when the cache has no large items). Closing a view leaves {@code device} open.
     *
     * @throws IllegalArgumentException if {@code name} is not one of the layout's caches
     */
    public BlockDevice[] devices(BlockDevice device, String name) {
        Objects.requireNonNull(device, "device");
        long[] r = ranges.get(name);
        if (r == null) {
            throw new IllegalArgumentException("cache '" + name + "' is not among the volume's caches " + ranges.keySet());
        }
        BlockDevice small = new DeviceSlice(device, r[0], r[1], device.name() + "/" + name + "-buckets");
        BlockDevice large = r[3] == 0 ? null : new DeviceSlice(device, r[2], r[3], device.name() + "/" + name + "-regions");
        return new BlockDevice[] {small, large};
    }

    /** The layout as recorded: a line per cache with its ranges' starts and sizes. */
    public String text() {
        StringBuilder s = new StringBuilder("# cache bucket-pages-start bytes regions-start bytes\n");
        ranges.forEach((name, r) -> s.append(name).append(' ').append(r[0]).append(' ').append(r[1]).append(' ')
                .append(r[2]).append(' ').append(r[3]).append('\n'));
        return s.toString();
    }

    private static long roundUp(long bytes) {
        return (bytes + ALIGN - 1) / ALIGN * ALIGN;
    }
}
