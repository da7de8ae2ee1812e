package io.most.spring.autoconfigure;

import static io.most.spring.autoconfigure.PropertyAttribution.property;

import io.most.PageStore;
import io.most.cache.CacheConfig;
import io.most.device.BlockDevice;
import io.most.device.DeviceSlice;
import io.most.tier.TieredVolume;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The caches' tiered volume ({@code most.cache.volume.*}): MOST's Cerberus under the caches, as CacheLib's
 * flash engines run on one Cerberus device. Each cache of {@code most.cache.names} gets two ranges of the
 * volume, its bucket pages and then its regions, laid out in the order of the names and sized by the
 * cache's settings. The layout is recorded in {@value #LAYOUT_FILE} in the cache directory: a restart with
 * other names, another order or other sizes is refused with the properties to restore, instead of reading
 * one cache's flash as another's.
 */
final class CacheVolume implements AutoCloseable {
    static final String LAYOUT_FILE = "volume-layout";
    /** The block size the layout aligns to: the caches' devices are 4 KiB-block devices. */
    private static final int ALIGN = 4096;

    private final TieredVolume volume;
    /** Per cache: bucket pages' start and bytes, regions' start and bytes (0 bytes: no large items). */
    private final Map<String, long[]> ranges;

    private CacheVolume(TieredVolume volume, Map<String, long[]> ranges) {
        this.volume = volume;
        this.ranges = ranges;
    }

    /**
     * Lays out the named caches, checks the layout against the recorded one (recording it the first
     * time) and opens the volume.
     *
     * @throws MostPropertyException naming the property to change
     */
    static CacheVolume open(MostProperties.Cache cache, Path directory) {
        List<String> names = cache.getNames();
        if (names.isEmpty()) {
            throw MostPropertyException.missing("most.cache.names", "the caches' volume (most.cache.volume.*) holds"
                    + " a fixed set of caches, each in its own range of the volume: list them");
        }
        Map<String, long[]> ranges = new LinkedHashMap<>();
        long end = 0;
        for (String name : names) {
            CacheConfig config = CacheConfigFactory.config(name, cache, directory);
            long small = roundUp(PageStore.blockDeviceBytesFor(config.buckets() + 1, config.pageSize()));
            long large = config.largeItemBytes() > 0 ? roundUp(ALIGN + config.largeItemBytes()) : 0;
            ranges.put(name, new long[] {end, small, end + small, large});
            end += small + large;
        }
        String layout = layoutText(ranges);
        boolean recorded = checkLayout(directory, layout);
        TieredVolume volume = TieredVolumeFactory.open(cache.getVolume(), TieredVolumeFactory.CACHE_PREFIX);
        if (volume.capacity() < end || volume.blockSize() > ALIGN || ALIGN % volume.blockSize() != 0) {
            volume.close();
            MostProperties.Volume v = cache.getVolume();
            throw new MostPropertyException("the caches " + names + " need " + end + " bytes of the caches' volume"
                    + " in blocks of at most " + ALIGN + " bytes; it holds " + volume.capacity() + " in blocks of "
                    + volume.blockSize() + ": enlarge its devices or make the caches smaller (most.cache.small-items,"
                    + " most.cache.large-items)", null, List.of(
                    property(TieredVolumeFactory.CACHE_PREFIX + "capacity.size", v.getCapacity().getSize()),
                    property(TieredVolumeFactory.CACHE_PREFIX + "performance.size", v.getPerformance().getSize()),
                    property("most.cache.small-items", cache.getSmallItems()),
                    property("most.cache.large-items", cache.getLargeItems())));
        }
        if (!recorded) {
            try {
                record(directory, layout); // only once the volume holds it: a refused start records nothing
            } catch (RuntimeException e) {
                volume.close();
                throw e;
            }
        }
        return new CacheVolume(volume, ranges);
    }

    /** The volume itself (for health and metrics). */
    TieredVolume volume() {
        return volume;
    }

    /**
     * New views of cache {@code name}'s ranges: its bucket pages' device and its regions' device (null
     * when the cache has no large items). The cache may close them; the volume stays open.
     */
    BlockDevice[] devices(String name) {
        long[] r = ranges.get(name);
        if (r == null) {
            throw new IllegalArgumentException("cache '" + name + "' is not among most.cache.names " + ranges.keySet());
        }
        BlockDevice small = new DeviceSlice(volume, r[0], r[1], volume.name() + "/" + name + "-buckets");
        BlockDevice large = r[3] == 0 ? null : new DeviceSlice(volume, r[2], r[3], volume.name() + "/" + name + "-regions");
        return new BlockDevice[] {small, large};
    }

    /** Closes the volume (a clean checkpoint); the caches on it must be closed first. */
    @Override
    public void close() {
        volume.close();
    }

    private static String layoutText(Map<String, long[]> ranges) {
        StringBuilder s = new StringBuilder("# cache bucket-pages-start bytes regions-start bytes\n");
        ranges.forEach((name, r) -> s.append(name).append(' ').append(r[0]).append(' ').append(r[1]).append(' ')
                .append(r[2]).append(' ').append(r[3]).append('\n'));
        return s.toString();
    }

    /**
     * Whether a layout is recorded in {@code directory}; if one is, it must be {@code layout}.
     *
     * @throws MostPropertyException if the recorded layout is another
     */
    private static boolean checkLayout(Path directory, String layout) {
        Path file = directory.resolve(LAYOUT_FILE);
        try {
            if (Files.exists(file)) {
                String recorded = Files.readString(file);
                if (!recorded.equals(layout)) {
                    throw new MostPropertyException("the caches' volume was laid out for other caches or sizes (" + file
                            + " records:\n" + recorded + "now:\n" + layout + "): restore most.cache.names (the same names"
                            + " in the same order) and the caches' sizes, or delete the volume's device files and "
                            + file + " to start empty", null, List.of(property("most.cache.names", null),
                            property("most.cache.small-items", null), property("most.cache.large-items", null)));
                }
                return true;
            }
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the caches' volume layout " + file + ": " + e.getMessage(), e);
        }
    }

    /** Records {@code layout}, atomically: a crash leaves the old state or the new file, never half of it. */
    private static void record(Path directory, String layout) {
        Path file = directory.resolve(LAYOUT_FILE);
        try {
            Files.createDirectories(directory);
            Path temp = directory.resolve(LAYOUT_FILE + ".tmp");
            Files.writeString(temp, layout);
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record the caches' volume layout in " + file + ": " + e.getMessage(), e);
        }
    }

    private static long roundUp(long bytes) {
        return (bytes + ALIGN - 1) / ALIGN * ALIGN;
    }
}
