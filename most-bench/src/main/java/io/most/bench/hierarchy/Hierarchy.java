package io.most.bench.hierarchy;

import io.most.bench.Layer;
import io.most.bench.Named;
import io.most.device.DeviceProfile;
import io.most.device.PmProfile;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A named arrangement of storage devices to benchmark on: one O_DIRECT file, a mapped PM file, memory,
 * an emulated device profile, or the buffer tiers of a page store ({@code dram-pm-ssd}). A hierarchy describes
 * itself before anything is opened (so bad combinations fail before a file is written) and opens
 * devices on demand.
 */
public interface Hierarchy extends Named {

    /** Number of devices, fastest first; policies check it (raw needs exactly one). */
    int devices();

    /** The layer whose workloads run on this hierarchy: block devices, or a page store over tiers. */
    default Layer<?> layer() {
        return Layer.BLOCK;
    }

    /** Bytes per I/O (block hierarchies) or per page (page hierarchies) when {@code --block-size} is not given. */
    default int defaultBlockSize() {
        return 4096;
    }

    /**
     * The service model the fastest device follows, if emulated. Open-loop {@code --intensity} and
     * the report's model expectations refer to it; real devices have none.
     */
    Optional<DeviceProfile> model();

    /**
     * The service model of the slowest device a request can reach, if emulated: the open loop's default
     * thread count is sized for it, because a policy may send any request there (offloading, caching,
     * striping). The same as {@link #model()} where there is one device.
     */
    default Optional<DeviceProfile> slowestModel() {
        return model();
    }

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
     * @param blockSize device block size (page size for page hierarchies)
     * @param directory where files go; ignored unless {@link #usesDirectory()}
     * @param dramBytes DRAM buffer pool of a page hierarchy; empty = its default
     * @param pmBytes   PM buffer pool (frames, without metadata) of a page hierarchy; empty = its default
     * @param pmProfile the PM model a page hierarchy's PM tier pays through ({@code --pm-profile},
     *                  see {@link PmChoice}); a free one ({@code none}) charges nothing
     */
    record Options(long size, int blockSize, Path directory, OptionalLong dramBytes, OptionalLong pmBytes,
                   PmProfile pmProfile) {
        /** Options of a block hierarchy (no buffer pools). */
        public Options(long size, int blockSize, Path directory) {
            this(size, blockSize, directory, OptionalLong.empty(), OptionalLong.empty(), PmChoice.defaultProfile());
        }

        /** The same options with a device (or data set) of {@code bytes}. */
        public Options withSize(long bytes) {
            return new Options(bytes, blockSize, directory, dramBytes, pmBytes, pmProfile);
        }

        /** The same options with files in {@code dir}. */
        public Options withDirectory(Path dir) {
            return new Options(size, blockSize, dir, dramBytes, pmBytes, pmProfile);
        }
    }
}
