package io.most.bench;

import io.most.device.DeviceProfile;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A named arrangement of storage devices to benchmark on: one O_DIRECT file, a mapped PM file, memory,
 * an emulated device profile, and later multi-tier sets such as DRAM-PM-SSD. A hierarchy describes
 * itself before anything is opened (so bad combinations fail before a file is written) and opens
 * devices on demand.
 */
public interface Hierarchy extends Named {

    /** Number of devices, fastest first; policies check it (raw needs exactly one). */
    int devices();

    /**
     * The service model the fastest device follows, if emulated. Open-loop {@code --intensity} and
     * the report's model expectations refer to it; real devices have none.
     */
    Optional<DeviceProfile> model();

    /** Data set size when {@code --size} is not given. */
    long defaultSize();

    /** Whether the devices live in files in a directory ({@code --dir} or a temporary one). */
    boolean usesDirectory();

    /**
     * Opens the devices, ready for I/O: files are created in {@code options.directory()} and written
     * once so reads hit allocated blocks.
     *
     * @param log where to say what is being prepared (stderr), never stdout
     */
    OpenHierarchy open(Options options, PrintStream log);

    /**
     * What to open.
     *
     * @param size      data set bytes per device, a multiple of {@code blockSize}
     * @param blockSize device block size
     * @param directory where files go; ignored unless {@link #usesDirectory()}
     */
    record Options(long size, int blockSize, Path directory) {
    }
}
