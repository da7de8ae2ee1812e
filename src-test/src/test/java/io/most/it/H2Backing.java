package io.most.it;

import io.most.examples.h2.MostVolume;
import io.most.examples.h2.MostVolumes;
import io.most.examples.h2.VolumeOptions;
import java.nio.file.Files;
import java.nio.file.Path;

/** The two backings of the H2-on-MOST crash tests, as the child and the verifying parent open them. */
enum H2Backing {
    /** An O_DIRECT file device. */
    DEVICE,
    /** A page store with 1 MiB of DRAM over an O_DIRECT file, so pages are evicted while H2 writes. */
    PAGE_STORE;

    static final String MOUNT = "/crash";
    private static final long CAPACITY = 64L << 20;

    /** Opens (creating on first use) the volume on {@code file}, with the default background sync. */
    MostVolume open(Path file) {
        long capacity = Files.exists(file) ? 0 : CAPACITY;
        VolumeOptions options = VolumeOptions.defaults();
        return this == DEVICE ? MostVolumes.directFile(file, capacity, options)
                : MostVolumes.pageStore(file, capacity, 16 * 1024, 1L << 20, options);
    }
}
