package io.most.examples.h2;

import java.nio.file.Path;

/** The two backings every H2-on-MOST test runs on, with small sizes that make a test fast. */
enum Backing {
    /** An O_DIRECT file device of 4 KiB blocks. */
    DEVICE {
        @Override
        MostVolume open(Path file, VolumeOptions options) {
            return MostVolumes.directFile(file, 64L << 20, options);
        }
    },
    /**
     * A page store of 16 KiB pages (16 352 payload bytes: blocks that are not a power of two) with
     * 1 MiB of DRAM, so H2's file is evicted to the device and read back.
     */
    PAGE_STORE {
        @Override
        MostVolume open(Path file, VolumeOptions options) {
            return MostVolumes.pageStore(file, 64L << 20, 16 * 1024, 1L << 20, options);
        }
    };

    /** Opens (creating if blank and allowed) the volume whose backing file is {@code file}. */
    abstract MostVolume open(Path file, VolumeOptions options);

    /** Opens with background sync off: tests force explicitly. */
    MostVolume open(Path file) {
        return open(file, VolumeOptions.defaults().withSyncInterval(java.time.Duration.ZERO));
    }
}
