package io.most.bench.hierarchy;

import io.most.bench.ScratchFiles;
import io.most.device.BlockDevice;
import io.most.device.DeviceProfile;
import io.most.device.DirectFileDevice;
import io.most.device.PmemDevice;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One real device on a file in the run's directory: an O_DIRECT file ({@code direct-file}) or a
 * mapped PM file ({@code pmem-file}). The file is written once when opened and deleted on close.
 */
final class FileHierarchy implements Hierarchy {
    /** Which device class opens the file. */
    enum Kind { DIRECT, PMEM }

    private static final long DEFAULT_SIZE = 256L << 20;

    private final String name;
    private final Kind kind;

    FileHierarchy(String name, Kind kind) {
        this.name = name;
        this.kind = kind;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return switch (kind) {
            case DIRECT -> "this machine's disk: an O_DIRECT file in --dir (DirectFileDevice), default 256m";
            case PMEM -> "a memory-mapped file in --dir used as PM (PmemDevice; page cache, no DAX here), default 256m";
        };
    }

    @Override
    public int devices() {
        return 1;
    }

    @Override
    public Optional<DeviceProfile> model() {
        return Optional.empty();
    }

    @Override
    public long defaultSize() {
        return DEFAULT_SIZE;
    }

    @Override
    public boolean usesDirectory() {
        return true;
    }

    @Override
    public OpenHierarchy open(Options options, PrintStream log) {
        Path file;
        try {
            file = Files.createTempFile(options.directory(), "most-bench-" + name + "-", ".dat");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a data file in " + options.directory() + ": " + e.getMessage(), e);
        }
        ScratchFiles.remember(file);
        BlockDevice device = null;
        try {
            device = switch (kind) {
                case DIRECT -> DirectFileDevice.open(file, options.size(),
                        DirectFileDevice.Options.defaults().withBlockSize(options.blockSize()));
                case PMEM -> PmemDevice.open(file, options.size(), options.blockSize());
            };
            DataSetWriter.fill(device, log);
            return new OpenHierarchy(this, List.of(device), List.of(file));
        } catch (RuntimeException e) {
            if (device != null) {
                device.close();
            }
            try {
                Files.deleteIfExists(file);
                ScratchFiles.forget(file);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }
}
