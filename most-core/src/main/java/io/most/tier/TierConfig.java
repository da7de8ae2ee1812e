package io.most.tier;

import io.most.tier.policy.PlacementPolicy;

import io.most.errors.ConfigurationException;
import io.most.tier.policy.MostPolicy;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * How a {@link TieredVolume} is laid out and tuned, built with {@link #builder()}. Defaults are the
 * MOST paper's. {@link Builder#build()} checks every value on its own; {@link TieredVolume#open}
 * checks them against the devices. Problems are {@link ConfigurationException}s that say what to
 * change.
 *
 * <p>{@code segmentSize} and {@code subpageSize} are fixed when a volume is formatted and must be
 * configured the same when it is reopened; {@code journalBytes} is taken from the volume on reopen.
 * Everything else may change between opens.
 *
 * @param segmentSize             bytes per segment, the unit of placement and migration: a power of two
 *                                of at least 4 KiB (default 2 MiB)
 * @param subpageSize             bytes per subpage, the unit whose validity is tracked in mirrored
 *                                segments: a power of two dividing the segment, at least the devices'
 *                                block size (default 4 KiB)
 * @param optimizerInterval       how often latency is sampled and the policy tunes, migrates and cleans
 *                                (default 200 ms); {@link Duration#ZERO} runs no background thread
 * @param latencyEwmaAlpha        weight of the newest interval in the per-device latency average, within
 *                                (0, 1] (default 0.3)
 * @param hotThreshold            reads or writes at which a segment counts as hot (HeMem: 8)
 * @param coolingThreshold        count at which all counters are halved, lazily (HeMem: 18)
 * @param migrationBytesPerSecond the most bytes migration and cleaning may copy per second
 *                                (default 256 MiB/s)
 * @param journalBytes            size of the metadata journal on the performance device; 0 chooses
 *                                1/64 of that device, between 32 blocks and 64 MiB
 * @param policy                  supplies the placement policy of each opened volume (default
 *                                {@link MostPolicy} with the paper's settings)
 * @param name                    the volume's device name, or null for {@code "tier(<perf>+<cap>)"}
 */
public record TierConfig(
        int segmentSize,
        int subpageSize,
        Duration optimizerInterval,
        double latencyEwmaAlpha,
        int hotThreshold,
        int coolingThreshold,
        long migrationBytesPerSecond,
        long journalBytes,
        Supplier<? extends PlacementPolicy> policy,
        String name) {

    /** The largest segment accepted. */
    public static final int MAX_SEGMENT_SIZE = 1 << 30;
    /** The most subpages a segment may have (the bits of one mirrored segment stay small). */
    public static final int MAX_SUBPAGES_PER_SEGMENT = 1 << 16;

    public TierConfig {
        Objects.requireNonNull(optimizerInterval, "optimizerInterval");
        Objects.requireNonNull(policy, "policy");
    }

    /** This configuration under another volume name (the levels of an N-device volume). */
    TierConfig named(String volumeName) {
        return new TierConfig(segmentSize, subpageSize, optimizerInterval, latencyEwmaAlpha, hotThreshold,
                coolingThreshold, migrationBytesPerSecond, journalBytes, policy, volumeName);
    }

    /** The defaults. */
    public static TierConfig defaults() {
        return builder().build();
    }

    /** A builder with the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** Subpages per segment. */
    public int subpagesPerSegment() {
        return segmentSize / subpageSize;
    }

    /** Builder of {@link TierConfig}. Not thread-safe. */
    public static final class Builder {
        private int segmentSize = 2 << 20;
        private int subpageSize = 4096;
        private Duration optimizerInterval = Duration.ofMillis(200);
        private double latencyEwmaAlpha = 0.3;
        private int hotThreshold = 8;
        private int coolingThreshold = 18;
        private long migrationBytesPerSecond = 256L << 20;
        private long journalBytes;
        private Supplier<? extends PlacementPolicy> policy = MostPolicy::new;
        private String name;

        private Builder() {
        }

        public Builder segmentSize(int bytes) {
            this.segmentSize = bytes;
            return this;
        }

        public Builder subpageSize(int bytes) {
            this.subpageSize = bytes;
            return this;
        }

        public Builder optimizerInterval(Duration interval) {
            this.optimizerInterval = Objects.requireNonNull(interval, "interval");
            return this;
        }

        public Builder latencyEwmaAlpha(double alpha) {
            this.latencyEwmaAlpha = alpha;
            return this;
        }

        /** HeMem's hot and cooling thresholds. */
        public Builder hotness(int hot, int cooling) {
            this.hotThreshold = hot;
            this.coolingThreshold = cooling;
            return this;
        }

        public Builder migrationBytesPerSecond(long bytes) {
            this.migrationBytesPerSecond = bytes;
            return this;
        }

        public Builder journalBytes(long bytes) {
            this.journalBytes = bytes;
            return this;
        }

        public Builder policy(Supplier<? extends PlacementPolicy> supplier) {
            this.policy = Objects.requireNonNull(supplier, "supplier");
            return this;
        }

        public Builder name(String volumeName) {
            this.name = volumeName;
            return this;
        }

        /** Validates and builds. */
        public TierConfig build() {
            if (segmentSize < 4096 || segmentSize > MAX_SEGMENT_SIZE || Integer.bitCount(segmentSize) != 1) {
                throw new ConfigurationException("segment size " + segmentSize
                        + " must be a power of two from 4096 to " + MAX_SEGMENT_SIZE + " (default 2 MiB)");
            }
            if (subpageSize < 512 || Integer.bitCount(subpageSize) != 1 || subpageSize > segmentSize) {
                throw new ConfigurationException("subpage size " + subpageSize
                        + " must be a power of two of at least 512 and at most the segment size " + segmentSize);
            }
            if (segmentSize / subpageSize > MAX_SUBPAGES_PER_SEGMENT) {
                throw new ConfigurationException("a segment of " + segmentSize + " bytes has more than "
                        + MAX_SUBPAGES_PER_SEGMENT + " subpages of " + subpageSize + " bytes: use larger subpages");
            }
            if (optimizerInterval.isNegative()) {
                throw new ConfigurationException("optimizer interval must not be negative, got " + optimizerInterval);
            }
            if (!(latencyEwmaAlpha > 0 && latencyEwmaAlpha <= 1)) {
                throw new ConfigurationException("latency EWMA alpha must be within (0, 1], got " + latencyEwmaAlpha);
            }
            if (hotThreshold < 1 || coolingThreshold <= hotThreshold || coolingThreshold > 255) {
                throw new ConfigurationException("hotness thresholds need 1 <= hot < cooling <= 255, got hot "
                        + hotThreshold + " and cooling " + coolingThreshold + " (HeMem: 8 and 18)");
            }
            if (migrationBytesPerSecond <= 0) {
                throw new ConfigurationException("migration rate must be positive, got " + migrationBytesPerSecond);
            }
            if (journalBytes < 0) {
                throw new ConfigurationException("journal size must be 0 (automatic) or positive, got " + journalBytes);
            }
            return new TierConfig(segmentSize, subpageSize, optimizerInterval, latencyEwmaAlpha, hotThreshold,
                    coolingThreshold, migrationBytesPerSecond, journalBytes, policy, name);
        }
    }
}
