package io.most.examples.h2;

import java.time.Duration;

/**
 * How a {@link MostVolume} is opened.
 *
 * @param create       whether a blank backing (a new device file, an empty page store) becomes a new
 *                     volume; when false, opening a blank backing fails with {@link VolumeFormatException}
 * @param syncInterval how often a background thread makes the volume durable (data and metadata) when
 *                     something changed, or {@link Duration#ZERO} for never (only H2's own
 *                     {@code force} calls). H2's MVStore forces its file only on close and on
 *                     {@code CHECKPOINT SYNC}, so this bounds what a crash of the process can lose,
 *                     as the kernel's writeback of dirty pages bounds it for files on a disk
 */
public record VolumeOptions(boolean create, Duration syncInterval) {

    /** Create if blank, sync in the background every second. */
    public static VolumeOptions defaults() {
        return new VolumeOptions(true, Duration.ofSeconds(1));
    }

    /** Validates the options. */
    public VolumeOptions {
        if (syncInterval == null || syncInterval.isNegative()) {
            throw new IllegalArgumentException("syncInterval must be zero or positive, not " + syncInterval);
        }
    }

    /** A copy with {@code create} changed. */
    public VolumeOptions withCreate(boolean allow) {
        return new VolumeOptions(allow, syncInterval);
    }

    /** A copy with {@code syncInterval} changed. */
    public VolumeOptions withSyncInterval(Duration interval) {
        return new VolumeOptions(create, interval);
    }
}
