package io.most.spring.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * MOST's settings under {@code most.*}: the page store ({@code most.store}), an optional tiered
 * volume under it ({@code most.volume}) and the MOST caches behind Spring's cache abstraction
 * ({@code most.cache}). Values are checked by MOST itself when the beans are
 * created; a bad one stops the application with a report naming the property (see
 * {@link MostConfigurationFailureAnalyzer}).
 *
 * <p>Why this class is large: it is the starter's whole property tree as nested classes, which Spring Boot
 * binds by name and whose javadoc its configuration-metadata processor turns into the IDE's property
 * documentation; split across files it would be no shorter, only harder to read as the tree it is.
 */
@ConfigurationProperties("most")
public class MostProperties {

    private final Store store = new Store();
    private final Volume volume = new Volume();
    private final Cache cache = new Cache();

    /** The page store's settings. */
    public Store getStore() {
        return store;
    }

    /** The optional tiered volume's settings. */
    public Volume getVolume() {
        return volume;
    }

    /** The MOST caches' settings. */
    public Cache getCache() {
        return cache;
    }

    /** The page store: its block device, page size, DRAM and PM pools and migration policy. */
    public static class Store {
        /** Name of the store in metrics (tag "store") and in the health details. */
        private String name = "most";

        /**
         * Directory of the store's data file (most.dev in it); created if missing. Set this or
         * most.store.file, unless a tiered volume (most.volume.*) is the block device.
         */
        private Path directory;

        /** The store's data file itself, instead of most.store.directory. */
        private Path file;

        /** Size of the data file (the block device); a multiple of 4 KiB. */
        private DataSize deviceSize = DataSize.ofMegabytes(256);

        /**
         * Whether to fall back to buffered I/O where the file system refuses O_DIRECT (tmpfs). Off by
         * default: buffered I/O goes through the OS page cache, which MOST's DRAM pool replaces.
         */
        private boolean bufferedFallback;

        /** Bytes per page on every tier: a power of two from 4 KiB to 64 KiB. */
        private DataSize pageSize = DataSize.ofKilobytes(16);

        /** Size of the DRAM buffer pool: a multiple of the page size, at least 16 pages. */
        private DataSize dram = DataSize.ofMegabytes(64);

        /** The persistent-memory tier; none unless most.store.pm.path is set. */
        private final Pm pm = new Pm();

        /**
         * Spitfire's migration policy between DRAM, PM and the block device: eager, lazy or hymem.
         * With most.store.adaptive=true it is where the tuner starts.
         */
        private String policy = "lazy";

        /** Whether simulated annealing tunes the migration policy online. */
        private boolean adaptive;

        /** How long the adaptive tuner measures each candidate policy. */
        private Duration tuningEpoch = Duration.ofSeconds(5);

        /**
         * Fraction of DRAM frames allowed dirty before the background cleaner writes pages back,
         * within (0, 1]; 1 disables the cleaner.
         */
        private double dirtyRatio = 0.5;

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public Path getDirectory() {
            return directory;
        }

        public void setDirectory(Path directory) {
            this.directory = directory;
        }

        public Path getFile() {
            return file;
        }

        public void setFile(Path file) {
            this.file = file;
        }

        public DataSize getDeviceSize() {
            return deviceSize;
        }

        public void setDeviceSize(DataSize deviceSize) {
            this.deviceSize = deviceSize;
        }

        public boolean isBufferedFallback() {
            return bufferedFallback;
        }

        public void setBufferedFallback(boolean bufferedFallback) {
            this.bufferedFallback = bufferedFallback;
        }

        public DataSize getPageSize() {
            return pageSize;
        }

        public void setPageSize(DataSize pageSize) {
            this.pageSize = pageSize;
        }

        public DataSize getDram() {
            return dram;
        }

        public void setDram(DataSize dram) {
            this.dram = dram;
        }

        public Pm getPm() {
            return pm;
        }

        public String getPolicy() {
            return policy;
        }

        public void setPolicy(String policy) {
            this.policy = policy;
        }

        public boolean isAdaptive() {
            return adaptive;
        }

        public void setAdaptive(boolean adaptive) {
            this.adaptive = adaptive;
        }

        public Duration getTuningEpoch() {
            return tuningEpoch;
        }

        public void setTuningEpoch(Duration tuningEpoch) {
            this.tuningEpoch = tuningEpoch;
        }

        public double getDirtyRatio() {
            return dirtyRatio;
        }

        public void setDirtyRatio(double dirtyRatio) {
            this.dirtyRatio = dirtyRatio;
        }
    }

    /** The persistent-memory tier of the page store. */
    public static class Pm {
        /** The PM file (on a DAX file system in production); created if missing. */
        private Path path;

        /** Size of the PM pool including one page of metadata: a multiple of the page size, at least 17 pages. */
        private DataSize size = DataSize.ofMegabytes(256);

        public Path getPath() {
            return path;
        }

        public void setPath(Path path) {
            this.path = path;
        }

        public DataSize getSize() {
            return size;
        }

        public void setSize(DataSize size) {
            this.size = size;
        }
    }

    /**
     * A MOST tiered volume over a performance and a capacity device; configured when either device's
     * file is set, and then the page store's block device.
     */
    public static class Volume {
        /** The fast device (e.g. an Optane SSD), which also holds the volume's metadata. */
        private final Device performance = new Device();

        /** The large device (e.g. an NVMe flash SSD). */
        private final Device capacity = new Device();

        /**
         * Placement policy: most (mirror-optimized tiering), most-paper, striping, hemem, batman,
         * colloid, colloid+, colloid++ or orthus.
         */
        private String placementPolicy = "most";

        /** Bytes per segment, the unit of placement and migration: a power of two of at least 4 KiB. Fixed when the volume is formatted. */
        private DataSize segmentSize = DataSize.ofMegabytes(2);

        public Device getPerformance() {
            return performance;
        }

        public Device getCapacity() {
            return capacity;
        }

        public String getPlacementPolicy() {
            return placementPolicy;
        }

        public void setPlacementPolicy(String placementPolicy) {
            this.placementPolicy = placementPolicy;
        }

        public DataSize getSegmentSize() {
            return segmentSize;
        }

        public void setSegmentSize(DataSize segmentSize) {
            this.segmentSize = segmentSize;
        }
    }

    /** One device of a tiered volume: a preallocated O_DIRECT file. */
    public static class Device {
        /** The device's file; created if missing. Required for a tiered volume. */
        private Path file;

        /** The device's size: a multiple of 4 KiB. Required for a tiered volume. */
        private DataSize size;

        public Path getFile() {
            return file;
        }

        public void setFile(Path file) {
            this.file = file;
        }

        public DataSize getSize() {
            return size;
        }

        public void setSize(DataSize size) {
            this.size = size;
        }
    }

    /**
     * The MOST caches behind Spring's {@code CacheManager} (with {@code @EnableCaching}): one MOST
     * cache engine per Spring cache, each in its own subdirectory. The sizes are per cache; entries
     * under most.cache.caches.NAME override them for one cache.
     */
    public static class Cache {
        /**
         * Directory of the caches' files (a subdirectory per cache, created if missing). Defaults to
         * "caches" in most.store.directory.
         */
        private Path directory;

        /** The caches to create at startup; when empty, a cache is created on first use of its name. */
        private List<String> names = new ArrayList<>();

        /** Whether null values are cached (as a marker) instead of refused. */
        private boolean allowNullValues = true;

        /** Bytes per bucket page of the small-item engine: a power of two from 4 KiB to 64 KiB. */
        private DataSize pageSize = DataSize.ofKilobytes(4);

        /**
         * DRAM for small items, per cache: a multiple of the page size, at least 16 pages. Half holds copies
         * of the hottest items (a hit reads no page), the rest bucket page frames.
         */
        private DataSize dram = DataSize.ofMegabytes(16);

        /** Persistent memory for bucket pages, per cache (a file in the cache's directory); 0 for none. */
        private DataSize pm = DataSize.ofBytes(0);

        /** Bucket pages of small items on flash, per cache: a multiple of the page size. */
        private DataSize smallItems = DataSize.ofMegabytes(64);

        /** Log-structured regions of large items on flash, per cache; 0 for none (values then fit a page). */
        private DataSize largeItems = DataSize.ofMegabytes(64);

        /** Bytes per region of the large-item engine: a multiple of 4 KiB from 64 KiB to 64 MiB. */
        private DataSize regionSize = DataSize.ofMegabytes(1);

        /** How long an entry lives after it was written; none by default. */
        private Duration timeToLive;

        /** How long an entry lives after it was last read or written; none by default (not with time-to-live). */
        private Duration timeToIdle;

        /** Per-cache overrides of the sizes and lifetimes, by cache name. */
        private Map<String, CacheOverride> caches = new LinkedHashMap<>();

        /**
         * A MOST tiered volume that holds the flash of every cache in most.cache.names (bucket pages and
         * regions, each cache its own range, laid out in the order of the names), instead of files in the
         * cache directory: configured when either device's file is set.
         */
        private final Volume volume = new Volume();

        /**
         * The caches as tenants of one set of shared devices: their flash in spaces of one file in the
         * cache directory, their PM and flash use accounted and throttled per cache under a sharing policy.
         */
        private final Sharing sharing = new Sharing();

        public Volume getVolume() {
            return volume;
        }

        public Sharing getSharing() {
            return sharing;
        }

        public Path getDirectory() {
            return directory;
        }

        public void setDirectory(Path directory) {
            this.directory = directory;
        }

        public List<String> getNames() {
            return names;
        }

        public void setNames(List<String> names) {
            this.names = names;
        }

        public boolean isAllowNullValues() {
            return allowNullValues;
        }

        public void setAllowNullValues(boolean allowNullValues) {
            this.allowNullValues = allowNullValues;
        }

        public DataSize getPageSize() {
            return pageSize;
        }

        public void setPageSize(DataSize pageSize) {
            this.pageSize = pageSize;
        }

        public DataSize getDram() {
            return dram;
        }

        public void setDram(DataSize dram) {
            this.dram = dram;
        }

        public DataSize getPm() {
            return pm;
        }

        public void setPm(DataSize pm) {
            this.pm = pm;
        }

        public DataSize getSmallItems() {
            return smallItems;
        }

        public void setSmallItems(DataSize smallItems) {
            this.smallItems = smallItems;
        }

        public DataSize getLargeItems() {
            return largeItems;
        }

        public void setLargeItems(DataSize largeItems) {
            this.largeItems = largeItems;
        }

        public DataSize getRegionSize() {
            return regionSize;
        }

        public void setRegionSize(DataSize regionSize) {
            this.regionSize = regionSize;
        }

        public Duration getTimeToLive() {
            return timeToLive;
        }

        public void setTimeToLive(Duration timeToLive) {
            this.timeToLive = timeToLive;
        }

        public Duration getTimeToIdle() {
            return timeToIdle;
        }

        public void setTimeToIdle(Duration timeToIdle) {
            this.timeToIdle = timeToIdle;
        }

        public Map<String, CacheOverride> getCaches() {
            return caches;
        }

        public void setCaches(Map<String, CacheOverride> caches) {
            this.caches = caches;
        }
    }

    /** The caches as tenants of shared devices (NyxCache's sharing, io.most.sharing). */
    public static class Sharing {
        /** Whether the caches are tenants of one set of shared devices (a flash file and a PM model). */
        private boolean enabled;

        /**
         * How the caches share PM and flash: none (accounting, and each cache's fixed share cap), limit
         * (each cache's limit), proportional (by weight), fair (equal slowdowns) or qos:CACHE:P99 (such as
         * qos:orders:2ms: that cache's P99 target, the others best effort).
         */
        private String policy = "none";

        /** Size of the shared flash file (tenants.most in the cache directory) holding every cache's space. */
        private DataSize deviceSize = DataSize.ofMegabytes(256);

        /** The PM model the caches' PM accesses pay through and are charged by; none: not accounted. */
        private String pmProfile = "none";

        /** The flash profile whose 1/MaxIOPS costs the caches' flash accesses are charged by. */
        private String deviceProfile = "nvme-pcie4";

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public String getPolicy() {
            return policy;
        }

        public void setPolicy(String policy) {
            this.policy = policy;
        }

        public DataSize getDeviceSize() {
            return deviceSize;
        }

        public void setDeviceSize(DataSize deviceSize) {
            this.deviceSize = deviceSize;
        }

        public String getPmProfile() {
            return pmProfile;
        }

        public void setPmProfile(String pmProfile) {
            this.pmProfile = pmProfile;
        }

        public String getDeviceProfile() {
            return deviceProfile;
        }

        public void setDeviceProfile(String deviceProfile) {
            this.deviceProfile = deviceProfile;
        }
    }

    /** One cache's sizes and lifetimes; each unset value is the most.cache one. */
    public static class CacheOverride {
        /** DRAM frames for this cache's bucket pages. */
        private DataSize dram;

        /** Persistent memory for this cache's bucket pages. */
        private DataSize pm;

        /** This cache's small-item bucket pages on flash. */
        private DataSize smallItems;

        /** This cache's large-item regions on flash. */
        private DataSize largeItems;

        /** How long this cache's entries live after they were written. */
        private Duration timeToLive;

        /** How long this cache's entries live after they were last read or written. */
        private Duration timeToIdle;

        /** This cache's weight under the proportional sharing policy (default 1). */
        private Integer weight;

        /** This cache's resource limit under the limit sharing policy, a fraction of each shared device. */
        private Double limit;

        /** A fixed cap on this cache's use of each shared device under sharing policy none, a fraction. */
        private Double share;

        public Integer getWeight() {
            return weight;
        }

        public void setWeight(Integer weight) {
            this.weight = weight;
        }

        public Double getLimit() {
            return limit;
        }

        public void setLimit(Double limit) {
            this.limit = limit;
        }

        public Double getShare() {
            return share;
        }

        public void setShare(Double share) {
            this.share = share;
        }

        public DataSize getDram() {
            return dram;
        }

        public void setDram(DataSize dram) {
            this.dram = dram;
        }

        public DataSize getPm() {
            return pm;
        }

        public void setPm(DataSize pm) {
            this.pm = pm;
        }

        public DataSize getSmallItems() {
            return smallItems;
        }

        public void setSmallItems(DataSize smallItems) {
            this.smallItems = smallItems;
        }

        public DataSize getLargeItems() {
            return largeItems;
        }

        public void setLargeItems(DataSize largeItems) {
            this.largeItems = largeItems;
        }

        public Duration getTimeToLive() {
            return timeToLive;
        }

        public void setTimeToLive(Duration timeToLive) {
            this.timeToLive = timeToLive;
        }

        public Duration getTimeToIdle() {
            return timeToIdle;
        }

        public void setTimeToIdle(Duration timeToIdle) {
            this.timeToIdle = timeToIdle;
        }
    }
}
