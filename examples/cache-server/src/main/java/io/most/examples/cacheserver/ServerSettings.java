package io.most.examples.cacheserver;

import io.most.cache.CacheConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Everything the server is started with, validated: where it listens, where the cache keeps its files
 * and how much of each tier it gets, and the limits that protect it from clients.
 *
 * @param bind             the address to listen on (default 127.0.0.1: loopback only)
 * @param port             the TCP port, 0 for any free one (default 6379)
 * @param dataDirectory    the cache's directory (its files survive a restart: a warm start)
 * @param dramBytes        the DRAM budget: half for copies of the hottest small items, half for
 *                         frames of the bucket pages ({@code CacheConfig.smallItemFrontBytes})
 * @param pmBytes          persistent-memory frames of the bucket pages (a mapped file), 0 for none
 * @param ssdBytes         bytes of bucket pages on flash (the small-item engine's capacity)
 * @param regionBytes      bytes of log-structured regions on flash for large values, 0 for none
 * @param threads          event loop threads (default the number of cores)
 * @param maxClients       connections served at once; one more gets {@code -ERR max number of clients reached}
 * @param idleTimeout      a client silent this long is disconnected; {@link Duration#ZERO} for never
 * @param maxBulkBytes     the longest bulk string a request may carry (longer: a protocol error)
 * @param maxArrayLength   the most arguments a request may have
 * @param maxRequestBytes  the most bytes of arguments one request may carry in total
 * @param maxInlineBytes   the longest inline command line ({@code PING\r\n} typed by hand)
 * @param writeBufferLow   bytes of unsent replies below which a paused connection reads again
 * @param writeBufferHigh  bytes of unsent replies above which the connection stops reading (back-pressure)
 * @param dirtyRatio       share of the DRAM bucket pages allowed dirty before they are written back
 *                         ({@link CacheConfig.Builder#dirtyRatio}; default {@value CacheConfig#DEFAULT_DIRTY_RATIO})
 * @param security         passwords, ACL users, protected mode and TLS
 * @param sharing          the ACL users served as tenants, each from a cache of its own on shared devices,
 *                         and the sharing policy ({@link SharingSettings#NONE} for none)
 * @param volume           the cache's flash on a tiered volume instead of files in {@code dataDirectory},
 *                         null for files
 */
public record ServerSettings(String bind, int port, Path dataDirectory, long dramBytes, long pmBytes, long ssdBytes,
                             long regionBytes, int threads, int maxClients, Duration idleTimeout, int maxBulkBytes,
                             int maxArrayLength, long maxRequestBytes, int maxInlineBytes, int writeBufferLow,
                             int writeBufferHigh, double dirtyRatio,
                             SecuritySettings security, SharingSettings sharing, VolumeSettings volume) {

    /** Redis's default port. */
    public static final int DEFAULT_PORT = 6379;

    public ServerSettings {
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(dataDirectory, "dataDirectory");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(security, "security");
        Objects.requireNonNull(sharing, "sharing");
        require(port >= 0 && port <= 65535, "port " + port + " must be within 0..65535 (0: any free port)");
        require(threads >= 1, "threads " + threads + " must be at least 1");
        require(maxClients >= 1, "maxClients " + maxClients + " must be at least 1");
        require(!idleTimeout.isNegative(), "idleTimeout " + idleTimeout + " must be 0 (never) or positive");
        require(maxBulkBytes >= 1, "maxBulkBytes " + maxBulkBytes + " must be at least 1");
        require(maxArrayLength >= 1, "maxArrayLength " + maxArrayLength + " must be at least 1");
        require(maxRequestBytes >= maxBulkBytes, "maxRequestBytes " + maxRequestBytes
                + " must be at least maxBulkBytes " + maxBulkBytes);
        require(maxInlineBytes >= 16, "maxInlineBytes " + maxInlineBytes + " must be at least 16");
        require(writeBufferLow >= 1 && writeBufferHigh > writeBufferLow, "write buffer water marks " + writeBufferLow
                + ".." + writeBufferHigh + " must satisfy 1 <= low < high");
        require(volume == null || sharing.tenants().isEmpty(), "--tenant and --performance/--capacity both place"
                + " flash: tenants share a device of their own; use one or the other");
    }

    /** Settings with the defaults: 127.0.0.1:6379, the cache in {@code dataDirectory}. */
    public static Builder builder(Path dataDirectory) {
        return new Builder(dataDirectory);
    }

    /**
     * The cache configuration these settings describe.
     *
     * @throws io.most.errors.ConfigurationException if the cache refuses the sizes (it says what to change)
     */
    public CacheConfig cacheConfig() {
        return cacheConfigBuilder().build();
    }

    /** A builder of {@link #cacheConfig()}, for the cache's devices to be set on (a tiered volume's ranges). */
    CacheConfig.Builder cacheConfigBuilder() {
        return CacheConfig.builder()
                .directory(dataDirectory)
                .dramBytes(dramBytes)
                .pmBytes(pmBytes)
                .smallItemBytes(ssdBytes)
                .largeItemBytes(regionBytes)
                .dirtyRatio(dirtyRatio);
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    /** A builder of {@link ServerSettings}, starting from the defaults. Not thread-safe. */
    public static final class Builder {
        private String bind = "127.0.0.1";
        private int port = DEFAULT_PORT;
        private final Path dataDirectory;
        private long dramBytes = 64L << 20;
        private long pmBytes;
        private long ssdBytes = 256L << 20;
        private long regionBytes = 256L << 20;
        private int threads = Runtime.getRuntime().availableProcessors();
        private int maxClients = 10_000;
        private Duration idleTimeout = Duration.ZERO;
        private int maxBulkBytes = 64 << 20;
        private int maxArrayLength = 1 << 20;
        private long maxRequestBytes = 128L << 20;
        private int maxInlineBytes = 64 << 10;
        private int writeBufferLow = 256 << 10;
        private int writeBufferHigh = 1 << 20;
        private double dirtyRatio = CacheConfig.DEFAULT_DIRTY_RATIO;
        private SecuritySettings security = SecuritySettings.DEFAULT;
        private VolumeSettings volume;
        private SharingSettings sharing = SharingSettings.NONE;

        private Builder(Path dataDirectory) {
            this.dataDirectory = Objects.requireNonNull(dataDirectory, "dataDirectory");
        }

        public Builder bind(String address) {
            this.bind = address;
            return this;
        }

        public Builder port(int port) {
            this.port = port;
            return this;
        }

        public Builder dramBytes(long bytes) {
            this.dramBytes = bytes;
            return this;
        }

        public Builder pmBytes(long bytes) {
            this.pmBytes = bytes;
            return this;
        }

        public Builder ssdBytes(long bytes) {
            this.ssdBytes = bytes;
            return this;
        }

        /** The share of DRAM bucket pages allowed dirty before write-back (the cache checks it). */
        public Builder dirtyRatio(double ratio) {
            this.dirtyRatio = ratio;
            return this;
        }

        public Builder regionBytes(long bytes) {
            this.regionBytes = bytes;
            return this;
        }

        public Builder threads(int threads) {
            this.threads = threads;
            return this;
        }

        public Builder maxClients(int clients) {
            this.maxClients = clients;
            return this;
        }

        public Builder idleTimeout(Duration timeout) {
            this.idleTimeout = timeout;
            return this;
        }

        public Builder maxBulkBytes(int bytes) {
            this.maxBulkBytes = bytes;
            return this;
        }

        public Builder maxArrayLength(int length) {
            this.maxArrayLength = length;
            return this;
        }

        public Builder maxRequestBytes(long bytes) {
            this.maxRequestBytes = bytes;
            return this;
        }

        public Builder maxInlineBytes(int bytes) {
            this.maxInlineBytes = bytes;
            return this;
        }

        /** The back-pressure water marks: stop reading above {@code high} unsent bytes, resume below {@code low}. */
        public Builder writeBuffer(int low, int high) {
            this.writeBufferLow = low;
            this.writeBufferHigh = high;
            return this;
        }

        /** Passwords, ACL users, protected mode and TLS (default: none, protected mode on). */
        public Builder security(SecuritySettings settings) {
            this.security = settings;
            return this;
        }

        /** ACL users served as tenants and the sharing policy (default: none). */
        public Builder sharing(SharingSettings settings) {
            this.sharing = settings;
            return this;
        }

        /** The cache's flash on a tiered volume (default null: files in the data directory). */
        public Builder volume(VolumeSettings settings) {
            this.volume = settings;
            return this;
        }

        /** Validates and builds. */
        public ServerSettings build() {
            return new ServerSettings(bind, port, dataDirectory, dramBytes, pmBytes, ssdBytes, regionBytes, threads,
                    maxClients, idleTimeout, maxBulkBytes, maxArrayLength, maxRequestBytes, maxInlineBytes,
                    writeBufferLow, writeBufferHigh, dirtyRatio, security, sharing, volume);
        }
    }
}
