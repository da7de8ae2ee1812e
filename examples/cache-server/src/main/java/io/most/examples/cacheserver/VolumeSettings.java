package io.most.examples.cacheserver;

import io.most.Sizes;
import io.most.errors.ConfigurationException;
import io.most.tier.policy.PlacementPolicies;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The cache's flash on a MOST tiered volume instead of two files (Cerberus under the cache, as the MOST
 * paper runs CacheLib): a performance device and a capacity device, each an O_DIRECT file of a fixed
 * size, and the placement policy that moves segments between them. The bucket pages and the regions are
 * two ranges of the volume ({@link io.most.cache.CacheVolumeLayout}).
 *
 * @param performanceFile  the faster device's file ({@code --performance FILE:SIZE})
 * @param performanceBytes its size
 * @param capacityFile     the larger device's file ({@code --capacity FILE:SIZE})
 * @param capacityBytes    its size
 * @param placementPolicy  the volume's policy ({@code --placement-policy}, default {@value #DEFAULT_POLICY})
 */
public record VolumeSettings(Path performanceFile, long performanceBytes, Path capacityFile, long capacityBytes,
                             String placementPolicy) {
    /** The policy a volume gets when none is named: MOST's own. */
    public static final String DEFAULT_POLICY = "most";

    public VolumeSettings {
        Objects.requireNonNull(performanceFile, "performanceFile");
        Objects.requireNonNull(capacityFile, "capacityFile");
        Objects.requireNonNull(placementPolicy, "placementPolicy");
        if (performanceFile.toAbsolutePath().normalize().equals(capacityFile.toAbsolutePath().normalize())) {
            throw new IllegalArgumentException("--performance and --capacity name the same file '" + performanceFile
                    + "': give each device a file of its own");
        }
        try {
            PlacementPolicies.named(placementPolicy);
        } catch (ConfigurationException e) {
            throw new IllegalArgumentException("--placement-policy: " + e.getMessage(), e);
        }
    }

    /**
     * The volume the options give, or null when neither device is named.
     *
     * @throws IllegalArgumentException naming the option when only one device is given or one is malformed
     */
    static VolumeSettings of(String performance, String capacity, String placementPolicy) {
        if (performance == null && capacity == null) {
            return null;
        }
        if (performance == null || capacity == null) {
            throw new IllegalArgumentException("a tiered volume needs both --performance FILE:SIZE and --capacity"
                    + " FILE:SIZE; " + (performance == null ? "--performance" : "--capacity") + " is missing");
        }
        Path pf = file("--performance", performance);
        Path cf = file("--capacity", capacity);
        return new VolumeSettings(pf, size("--performance", performance), cf, size("--capacity", capacity),
                placementPolicy == null ? DEFAULT_POLICY : placementPolicy);
    }

    private static Path file(String option, String value) {
        int colon = value.lastIndexOf(':');
        if (colon <= 0 || colon == value.length() - 1) {
            throw new IllegalArgumentException(option + " '" + value + "': write FILE:SIZE, e.g. /nvme/most.perf:4g");
        }
        return Path.of(value.substring(0, colon));
    }

    private static long size(String option, String value) {
        String size = value.substring(value.lastIndexOf(':') + 1);
        try {
            return Sizes.parse(size);
        } catch (Sizes.InvalidSizeException e) {
            throw new IllegalArgumentException(option + " '" + value + "': " + e.getMessage(), e);
        }
    }
}
