package io.most.kv;

import io.most.PageStoreConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Where and how {@link KvDatabase#open} keeps a database, built with {@link #inDirectory(Path)} (files
 * {@code data.most}, {@code wal.log} and, with PM, {@code pm.most} in one directory) or
 * {@link #withStore(PageStoreConfig.Builder, Path)} (your own page-store configuration; the engine sets
 * its {@link io.most.WalHook}).
 *
 * <pre>{@code
 * KvOptions options = KvOptions.inDirectory(Path.of("/data/kv"))
 *         .pageSize(16 * 1024).dramBytes(64L << 20).pmBytes(256L << 20).deviceBytes(4L << 30)
 *         .build();
 * }</pre>
 */
public final class KvOptions {
    final Path directory;
    final PageStoreConfig.Builder store;
    final Path logPath;
    final int pageSize;
    final long dramBytes;
    final long pmBytes;
    final long deviceBytes;
    final Duration lockTimeout;
    final long checkpointLogBytes;
    final boolean syncCommit;
    final int maxKeySize;
    final int scanPrefetchLeaves;

    private KvOptions(Builder b) {
        this.directory = b.directory;
        this.store = b.store;
        this.logPath = b.logPath != null ? b.logPath : b.directory.resolve("wal.log");
        this.pageSize = b.pageSize;
        this.dramBytes = b.dramBytes;
        this.pmBytes = b.pmBytes;
        this.deviceBytes = b.deviceBytes;
        this.lockTimeout = b.lockTimeout;
        this.checkpointLogBytes = b.checkpointLogBytes;
        this.syncCommit = b.syncCommit;
        this.maxKeySize = b.maxKeySize;
        this.scanPrefetchLeaves = b.scanPrefetchLeaves;
    }

    /** Options for a database whose files all live in {@code directory} (created if missing). */
    public static Builder inDirectory(Path directory) {
        Builder b = new Builder();
        b.directory = Objects.requireNonNull(directory, "directory");
        return b;
    }

    /**
     * Options for a database on a page store you configure (block device, DRAM, PM, policy), with its log
     * at {@code logPath}. The engine sets its own {@link io.most.WalHook} on {@code store}.
     */
    public static Builder withStore(PageStoreConfig.Builder store, Path logPath) {
        Builder b = new Builder();
        b.store = Objects.requireNonNull(store, "store");
        b.logPath = Objects.requireNonNull(logPath, "logPath");
        return b;
    }

    /** How long a transaction waits for a key lock before {@link TransactionConflictException}. */
    public Duration lockTimeout() {
        return lockTimeout;
    }

    /** Builder of {@link KvOptions}. */
    public static final class Builder {
        private Path directory;
        private PageStoreConfig.Builder store;
        private Path logPath;
        private int pageSize = 16 * 1024;
        private long dramBytes = 64L << 20;
        private long pmBytes;
        private long deviceBytes = 1L << 30;
        private Duration lockTimeout = Duration.ofSeconds(5);
        private long checkpointLogBytes = 64L << 20;
        private boolean syncCommit = true;
        private int maxKeySize;
        private int scanPrefetchLeaves = LeafPrefetch.DEFAULT_WINDOW;

        private Builder() {
        }

        /** Page size for a directory database (default 16 KiB); bounds key and value sizes. */
        public Builder pageSize(int bytes) {
            this.pageSize = bytes;
            return this;
        }

        /** DRAM buffer pool of a directory database (default 64 MiB). */
        public Builder dramBytes(long bytes) {
            this.dramBytes = bytes;
            return this;
        }

        /** PM buffer (file {@code pm.most}) of a directory database; 0 (default) for none. */
        public Builder pmBytes(long bytes) {
            this.pmBytes = bytes;
            return this;
        }

        /** Size of the block-device file {@code data.most} of a directory database (default 1 GiB). */
        public Builder deviceBytes(long bytes) {
            this.deviceBytes = bytes;
            return this;
        }

        /** Log file (default {@code wal.log} in the directory). */
        public Builder logPath(Path path) {
            this.logPath = Objects.requireNonNull(path, "path");
            return this;
        }

        /** Lock wait timeout (default 5 s); deadlocks are detected without waiting. */
        public Builder lockTimeout(Duration timeout) {
            if (timeout.isNegative()) {
                throw new IllegalArgumentException("lock timeout must not be negative, got " + timeout);
            }
            this.lockTimeout = timeout;
            return this;
        }

        /**
         * Checkpoint in the background once the log grew by this many bytes since the last checkpoint
         * (default 64 MiB), bounding recovery time and log size; 0 disables automatic checkpoints.
         */
        public Builder checkpointLogBytes(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("checkpoint log bytes must not be negative, got " + bytes);
            }
            this.checkpointLogBytes = bytes;
            return this;
        }

        /**
         * Whether {@code commit} forces the log before it returns (default true). False trades durability
         * for latency, like PostgreSQL's {@code synchronous_commit = off}: a commit is atomic either way,
         * but durable only at the next log force — another transaction's synchronous commit, a page
         * written back ahead of its log (the WAL rule), a checkpoint, an asynchronous commit that finds
         * 1 MiB of log buffered, or {@code close}; a crash before that rolls it back. For benchmarks against stores that do not sync either.
         */
        public Builder syncCommit(boolean sync) {
            this.syncCommit = sync;
            return this;
        }

        /**
         * The longest key of a new database (default: a sixteenth of the page payload, at most 1 KiB,
         * which is also the largest allowed). The bound is kept in the database and fixed at creation;
         * left unset, an existing database opens with its own. A tighter bound buys longer values, since
         * a node must hold three maximal entries and four maximal keys as fences
         * ({@link KvDatabase#maxValueSize()}): on 4 KiB pages the default (254 bytes) allows values of
         * 749 bytes, a bound of 64 allows 1,192 (YCSB's keys are at most 23 bytes, its values 1,000).
         *
         * @throws IllegalArgumentException if {@code bytes < 1}; a bound too large for the page size is
         *                                  refused by {@link KvDatabase#open} before the store is formatted
         */
        public Builder maxKeySize(int bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("max key size must be at least 1 byte, got " + bytes);
            }
            this.maxKeySize = bytes;
            return this;
        }

        /**
         * How many leaves a scan reads ahead (default 64): the leaf a scan starts in and the ones after it
         * (before it, descending) are taken from their parent node and loaded with one batch of device reads
         * ({@link io.most.PageStore#prefetch}), no more than the scan's limit needs, refilled as the scan
         * moves on. 0 turns read-ahead off: each leaf a scan misses is then read alone when the scan reaches
         * it (for comparison, or on a device where a batch gains nothing). Results are the same either way.
         *
         * @throws IllegalArgumentException if {@code leaves < 0}
         */
        public Builder scanPrefetchLeaves(int leaves) {
            if (leaves < 0) {
                throw new IllegalArgumentException("scan prefetch must be 0 (off) or a number of leaves, got " + leaves);
            }
            this.scanPrefetchLeaves = leaves;
            return this;
        }

        /** The options. */
        public KvOptions build() {
            return new KvOptions(this);
        }
    }
}
