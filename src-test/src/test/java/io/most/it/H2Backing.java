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
    /**
     * Room for every generation's writes: each commit's {@code CHECKPOINT SYNC} appends a chunk (about
     * 20 KiB) and H2 keeps dead chunks for its 45 s retention, so the file grows with the commit rate,
     * which is the machine's speed. 64 MiB filled up in the third generation once the machine was quiet
     * (the file passed 66 MB: about 25 MB per generation of up to 1.5 s); 1 GiB (preallocated, not
     * written) holds four such generations eight times over.
     */
    private static final long CAPACITY = 1L << 30;

    /** Opens (creating on first use) the volume on {@code file}, with the default background sync. */
    MostVolume open(Path file) {
        long capacity = Files.exists(file) ? 0 : CAPACITY;
        VolumeOptions options = VolumeOptions.defaults();
        return this == DEVICE ? MostVolumes.directFile(file, capacity, options)
                : MostVolumes.pageStore(file, capacity, 16 * 1024, 1L << 20, options);
    }
}
