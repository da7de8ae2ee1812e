package io.most.device;

import io.most.errors.ConfigurationException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicBoolean;
import jdk.nio.mapmode.ExtendedMapMode;

/**
 * Persistent memory reached through a memory-mapped file: byte-addressable loads and stores on
 * {@link #segment()}, made durable by {@link #persist(long, long)}.
 *
 * <p>On a DAX file system the file is mapped with {@code MAP_SYNC}
 * ({@link ExtendedMapMode#READ_WRITE_SYNC}) and persisting only writes back CPU cache lines. Anywhere
 * else (this project's CI, a laptop) the mapping falls back to an ordinary shared mapping and
 * persisting becomes {@code msync} of the range; which mode is in use is logged once and reported by
 * {@link #isSyncMapped()}.
 *
 * <p>It is also a {@link BlockDevice} (block reads and writes copy to and from the mapping, and
 * {@link #force()} persists everything), so block-level layers can use a PM file like any device.
 * The file is preallocated, so a full file system fails at open instead of faulting on a store.
 *
 * <p>Where no real PM exists the device's speed is emulated by an {@link EmulatedPm} ({@link #pm()}):
 * block reads and writes pay through it, and so must code that loads and stores on {@link #segment()}
 * directly (the buffer manager's PM tier does). A device opened without one costs what the mapping
 * costs.
 * The device holds an exclusive {@link StoreFileLock} on the file until {@link #close()}.
 */
public final class PmemDevice extends AbstractBlockDevice {
    private static final System.Logger LOG = System.getLogger(PmemDevice.class.getName());
    private static final AtomicBoolean MODE_LOGGED = new AtomicBoolean();

    private final Path path;
    private final Arena arena;
    private final MemorySegment mapping;
    private final boolean syncMapped;
    private final StoreFileLock lock;
    private final EmulatedPm pm;

    private PmemDevice(String name, Path path, Arena arena, MemorySegment mapping, boolean syncMapped, int blockSize,
                       StoreFileLock lock, EmulatedPm pm) {
        super(name, blockSize, mapping.byteSize());
        this.pm = pm;
        this.path = path;
        this.arena = arena;
        this.mapping = mapping;
        this.syncMapped = syncMapped;
        this.lock = lock;
    }

    /** Opens (creating if needed) a PM file of {@code capacity} bytes with 4 KiB blocks. */
    public static PmemDevice open(Path path, long capacity) {
        return open(path, capacity, 4096);
    }

    /**
     * Opens (creating if needed) {@code path} and maps {@code capacity} bytes of it. An existing file
     * keeps its contents (this is how a PM buffer survives a restart); a smaller one is extended.
     *
     * @throws ConfigurationException if the directory is missing or read-only, or the capacity is not
     *                                a multiple of {@code blockSize}
     * @throws DeviceFullException    if the file system cannot hold {@code capacity} bytes
     * @throws io.most.errors.FileInUseException if another device has the file open
     */
    public static PmemDevice open(Path path, long capacity, int blockSize) {
        return open(path, capacity, blockSize, EmulatedPm.shared(PmProfiles.get("none")));
    }

    /**
     * As {@link #open(Path, long, int)}, with block reads and writes paying the speed of {@code pm},
     * which other devices and tenants may share (see {@link EmulatedPm#shared}).
     */
    public static PmemDevice open(Path path, long capacity, int blockSize, EmulatedPm pm) {
        if (pm == null) {
            throw new IllegalArgumentException("PM model of '" + path + "' must not be null; use PmProfiles 'none'"
                    + " for no emulated cost");
        }
        DeviceFiles.checkCreatable(path, capacity, blockSize, "PM");
        boolean created = !Files.exists(path);
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE,
                StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            StoreFileLock lock = StoreFileLock.acquire(path, "PM file");
            try {
                return map(path, channel, capacity, blockSize, created, lock, pm);
            } catch (IOException | RuntimeException e) {
                lock.close();
                throw e;
            }
        } catch (IOException e) {
            throw new DeviceIOException("cannot map PM file '" + path + "': " + e.getMessage(), e);
        }
    }

    private static PmemDevice map(Path path, FileChannel channel, long capacity, int blockSize, boolean created,
                                  StoreFileLock lock, EmulatedPm pm) throws IOException {
        preallocate(path, channel, capacity);
        if (created) {
            NativeIO.get().ifPresent(io -> DeviceFiles.syncParent(io, path));
        }
        Arena arena = Arena.ofShared();
        try {
            MemorySegment mapping;
            boolean sync;
            try {
                mapping = channel.map(ExtendedMapMode.READ_WRITE_SYNC, 0, capacity, arena);
                sync = true;
            } catch (IOException | UnsupportedOperationException notDax) {
                mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, capacity, arena);
                sync = false;
            }
            if (MODE_LOGGED.compareAndSet(false, true)) {
                LOG.log(System.Logger.Level.INFO, sync
                        ? "PM file {0} mapped with MAP_SYNC (DAX): persist = cache-line write-back"
                        : "PM file {0} is not on DAX: mapped READ_WRITE, persist = msync of the range", path);
            }
            return new PmemDevice(DeviceFiles.nameOf(path), path, arena, mapping, sync, blockSize, lock, pm);
        } catch (IOException | RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    private static void preallocate(Path path, FileChannel channel, long capacity) throws IOException {
        if (channel.size() >= capacity) {
            return;
        }
        // Reserve real blocks: a sparse mapping on a full disk faults on a later store instead of
        // failing here. FileChannel has no fallocate, so use posix_fallocate where available.
        NativeIO io = NativeIO.get().orElse(null);
        if (io != null) {
            try {
                int fd = io.open(path.toString(), NativeIO.O_RDWR | NativeIO.O_CLOEXEC, 0644);
                try {
                    io.allocate(fd, capacity);
                    return;
                } finally {
                    io.close(fd);
                }
            } catch (NativeIO.NativeException e) {
                if (e.errno == NativeIO.ENOSPC) {
                    throw new DeviceFullException("no space to preallocate PM file '" + path + "' of "
                            + capacity + " bytes: free space or choose a smaller PM capacity");
                }
                LOG.log(System.Logger.Level.WARNING, "cannot preallocate {0} ({1}); the file may be sparse",
                        path, e.getMessage());
            }
        }
        channel.write(ByteBuffer.wrap(new byte[1]), capacity - 1);
    }

    /** The mapped file: loads and stores go straight to PM. Valid until {@link #close()}. */
    public MemorySegment segment() {
        return mapping;
    }

    /** The model whose time every access to this PM pays, shared with its other users. */
    public EmulatedPm pm() {
        return pm;
    }

    /** The file under this device. */
    public Path path() {
        return path;
    }

    /** Whether the mapping uses MAP_SYNC (true DAX persistent memory). */
    public boolean isSyncMapped() {
        return syncMapped;
    }

    /**
     * Makes the stores in {@code [offset, offset + length)} durable. Any range is accepted; it is
     * widened to whole pages by the operating system. Counted as a {@link IoOp#FORCE} of
     * {@code length} bytes; throws {@link IllegalStateException} after {@link #close()}.
     */
    public void persist(long offset, long length) {
        if (offset < 0 || length < 0 || offset > mapping.byteSize() - length) {
            throw new IllegalArgumentException("persist range [" + offset + ", " + offset + "+" + length
                    + ") is outside PM file '" + path + "' of " + mapping.byteSize() + " bytes");
        }
        if (length > 0) {
            runGuarded(IoOp.FORCE, length, () -> mapping.asSlice(offset, length).force());
        }
    }

    /**
     * Keeps the contents (a discarded block reads as its old bytes): persistent memory has no
     * translation layer to tell, zeroing would spend write bandwidth and wear for nothing, and punching
     * a hole in the mapped file would give up its preallocation, so a later store could fault on a full
     * disk instead of failing as a write.
     */
    @Override
    protected void doDiscard(long offset, long length) {
        // nothing to free: see above
    }

    @Override
    protected void doRead(long offset, MemorySegment destination) {
        long done = pm.reserve(IoOp.READ, offset, destination.byteSize());
        MemorySegment.copy(mapping, offset, destination, 0, destination.byteSize());
        pm.awaitCompletion(done); // the copy overlaps the modelled time, as a backing device's does
    }

    @Override
    protected void doWrite(long offset, MemorySegment source) {
        long done = pm.reserve(IoOp.WRITE, offset, source.byteSize());
        MemorySegment.copy(source, 0, mapping, offset, source.byteSize());
        pm.awaitCompletion(done);
    }

    /**
     * A batch arrives at once, as on {@link EmulatedDevice}: every request is reserved on the model's
     * channels at the same instant, the copies are made, and the caller waits for the last one, so the
     * requests of a batch overlap up to the profile's parallelism (its media bandwidth still bounds them)
     * instead of each waiting out its latency before the next starts.
     */
    @Override
    protected void doTransferAll(List<IoRequest> requests) {
        long done = 0;
        for (IoRequest r : requests) {
            done = Math.max(done, pm.reserve(r.op(), r.offset(), r.length()));
        }
        for (IoRequest r : requests) {
            if (r.op() == IoOp.READ) {
                MemorySegment.copy(mapping, r.offset(), r.buffer(), 0, r.length());
            } else {
                MemorySegment.copy(r.buffer(), 0, mapping, r.offset(), r.length());
            }
        }
        pm.awaitCompletion(done);
    }

    @Override
    protected void doForce() {
        mapping.force();
    }

    @Override
    protected void doClose() {
        try {
            mapping.force();
            arena.close();
        } finally {
            lock.close();
        }
    }
}
