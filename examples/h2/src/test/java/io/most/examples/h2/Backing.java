package io.most.examples.h2;

import java.nio.file.Path;

/** The two backings every H2-on-MOST test runs on, with small sizes that make a test fast. */
enum Backing {
    /** An O_DIRECT file device of 4 KiB blocks. */
    DEVICE {
        @Override
        MostVolume open(Path file, long capacity, VolumeOptions options) {
            return MostVolumes.directFile(file, capacity, options);
        }
    },
    /**
     * A page store of 16 KiB pages (16 352 payload bytes: blocks that are not a power of two) with
     * 1 MiB of DRAM, so H2's file is evicted to the device and read back.
     */
    PAGE_STORE {
        @Override
        MostVolume open(Path file, long capacity, VolumeOptions options) {
            return MostVolumes.pageStore(file, capacity, 16 * 1024, 1L << 20, options);
        }
    };

    /** Opens (creating if blank and allowed) the volume on {@code file} of {@code capacity} bytes (0: its size). */
    abstract MostVolume open(Path file, long capacity, VolumeOptions options);

    /** Opens the volume on {@code file}, created with 64 MiB if missing. */
    MostVolume open(Path file, VolumeOptions options) {
        return open(file, java.nio.file.Files.exists(file) ? 0 : 64L << 20, options);
    }

    /** Opens with background sync off: tests force explicitly. */
    MostVolume open(Path file) {
        return open(file, VolumeOptions.defaults().withSyncInterval(java.time.Duration.ZERO));
    }
}
