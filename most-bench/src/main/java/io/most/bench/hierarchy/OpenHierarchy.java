package io.most.bench.hierarchy;

import io.most.bench.ScratchFiles;
import io.most.device.BlockDevice;
import io.most.device.DeviceProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The opened devices of a {@link Hierarchy}. Policies attach to it in turn without closing it;
 * {@link #close()} closes the devices and deletes the files the hierarchy created.
 */
public final class OpenHierarchy implements AutoCloseable {
    private final Hierarchy hierarchy;
    private final List<BlockDevice> devices;
    private final List<Path> createdFiles;
    private final PageTiers pageTiers;

    /**
     * @param devices      opened devices, fastest first; closed by {@link #close()}
     * @param createdFiles files to delete on close (also on Ctrl-C, see {@link ScratchFiles})
     */
    public OpenHierarchy(Hierarchy hierarchy, List<BlockDevice> devices, List<Path> createdFiles) {
        this(hierarchy, devices, createdFiles, null);
    }

    /**
     * A page hierarchy: no shared devices, but the tiers from which each policy opens a fresh page
     * store (closed by {@link #close()}).
     */
    OpenHierarchy(Hierarchy hierarchy, PageTiers pageTiers) {
        this(hierarchy, List.of(), List.of(), pageTiers);
    }

    private OpenHierarchy(Hierarchy hierarchy, List<BlockDevice> devices, List<Path> createdFiles,
                          PageTiers pageTiers) {
        this.hierarchy = hierarchy;
        this.devices = List.copyOf(devices);
        this.createdFiles = List.copyOf(createdFiles);
        this.pageTiers = pageTiers;
    }

    /** What was opened. */
    public Hierarchy hierarchy() {
        return hierarchy;
    }

    /** The devices, fastest first. */
    public List<BlockDevice> devices() {
        return devices;
    }

    /** The buffer tiers of a page hierarchy; empty for block hierarchies. */
    public Optional<PageTiers> pageTiers() {
        return Optional.ofNullable(pageTiers);
    }

    /** Shorthand for {@code hierarchy().model()}. */
    public Optional<DeviceProfile> model() {
        return hierarchy.model();
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        if (pageTiers != null) {
            try {
                pageTiers.close();
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        for (BlockDevice device : devices) {
            try {
                device.close();
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        for (Path file : createdFiles) {
            try {
                Files.deleteIfExists(file);
                ScratchFiles.forget(file);
            } catch (IOException e) {
                failure = new UncheckedIOException("cannot delete " + file, e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
