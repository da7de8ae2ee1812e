package io.most.device;

import io.most.errors.ConfigurationException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A block device on a regular file opened with O_DIRECT, so reads and writes bypass the page cache
 * as a storage engine's own buffer pool expects. I/O goes through native {@code pread}/{@code pwrite}
 * (see {@link NativeIO}): an interrupted thread cannot close the device. The file is preallocated
 * to the full capacity on open, so a full file system is reported at open time rather than as a
 * failed write later.
 *
 * <p>Buffers that are native and aligned to the block size are used as they are; any other
 * buffer goes through a temporary aligned copy (correct, slower).
 *
 * <p>If the file system refuses O_DIRECT (tmpfs, some network file systems), {@link #open} fails
 * with a {@link ConfigurationException} unless {@link Options#allowBufferedFallback} is set, in
 * which case the file is opened buffered and a warning is logged once.
 *
 * <p>The device holds an exclusive {@link StoreFileLock} on its file until {@link #close()}: a
 * second device on the same file, in this process or another, is refused. An existing file shorter
 * than the requested capacity is refused too, unless {@link Options#allowGrowth} is set: a file that
 * was truncated behind the store's back must not silently read as zeros where its data was.
 *
 * <p><b>I/O engine.</b> Where the kernel allows it, every read, write, batch and force goes through
 * io_uring ({@link IoUringEngine}): {@link #transferAll} keeps up to {@link Options#queueDepth} I/Os
 * in flight from one thread, which a fast SSD needs to reach its IOPS, and {@link #openQueue} gives a
 * thread a ring of its own to refill as each completion lands. Where io_uring is unavailable
 * (a kernel before 5.6, a seccomp filter such as a container runtime's default profile, the sysctl
 * {@code kernel.io_uring_disabled}) the device uses synchronous {@code pread}/{@code pwrite} and logs
 * why, once per JVM. {@link Options#engine} (default: the system property {@value IoEngine#PROPERTY})
 * forces either; {@link #engine()} tells which one runs.
 *
 * <p><b>Discard</b> punches a hole in the file ({@code fallocate(PUNCH_HOLE | KEEP_SIZE)}): the file
 * system frees the blocks (and passes the trim on to the SSD where it is mounted with discard), and a
 * discarded block reads as zeros. The hole is no longer preallocated, so a later write of it needs
 * free space again and may fail with {@link DeviceFullException} on a full file system. Where the file
 * system cannot punch holes the discard keeps the contents (a discarded block reads as its old bytes),
 * which the contract allows, and a warning is logged once per JVM.
 *
 * <p>Requires Linux and {@code --enable-native-access=io.most.core} (or {@code ALL-UNNAMED}).
 */
public final class DirectFileDevice extends AbstractBlockDevice {
    private static final System.Logger LOG = System.getLogger(DirectFileDevice.class.getName());

    private final NativeIO io;
    private final int fd;
    private final Path path;
    private final boolean direct;
    private final StoreFileLock lock;
    /** The io_uring engine, or null when the device runs on pread/pwrite. */
    private final IoUringEngine uring;
    /** Set once the file system refused a hole punch: discards then keep the contents. */
    private volatile boolean punchUnsupported;
    /** Whether the fallback to pread was logged: once per JVM, not once per device. */
    static final AtomicBoolean FALLBACK_LOGGED = new AtomicBoolean();
    /** Whether the "cannot punch holes" warning was logged in this JVM. */
    static final AtomicBoolean NO_PUNCH_LOGGED = new AtomicBoolean();

    /**
     * Open options.
     *
     * @param blockSize             bytes per block (default 4096)
     * @param allowBufferedFallback open buffered where the file system refuses O_DIRECT (default false)
     * @param allowGrowth           extend an existing non-empty file that is shorter than the capacity
     *                              (default false: such a file was probably truncated)
     * @param engine                io_uring, pread, or io_uring where available (default: the system
     *                              property {@value IoEngine#PROPERTY}, else {@link IoEngine#AUTO})
     * @param queueDepth            entries of each io_uring ring: the I/Os one batch or one
     *                              {@link IoQueue} keeps in the kernel at once (default
     *                              {@value IoUringEngine#DEFAULT_ENTRIES}; a larger batch is split, a
     *                              deeper queue holds the rest until entries free up; the kernel rounds
     *                              up to a power of two)
     */
    public record Options(int blockSize, boolean allowBufferedFallback, boolean allowGrowth, IoEngine engine,
                          int queueDepth) {
        /** Largest ring the kernel sets up. */
        public static final int MAX_QUEUE_DEPTH = 32768;

        /**
         * @throws IllegalArgumentException if {@code queueDepth} is outside 1..{@value #MAX_QUEUE_DEPTH}
         */
        public Options {
            java.util.Objects.requireNonNull(engine, "engine");
            if (queueDepth < 1 || queueDepth > MAX_QUEUE_DEPTH) {
                throw new IllegalArgumentException("queue depth " + queueDepth + " must be between 1 and "
                        + MAX_QUEUE_DEPTH + " (the largest io_uring ring); larger batches are split anyway");
            }
        }

        /** The given block size, fallback and growth with the default engine and queue depth. */
        public Options(int blockSize, boolean allowBufferedFallback, boolean allowGrowth) {
            this(blockSize, allowBufferedFallback, allowGrowth, IoEngine.fromSystemProperty(),
                    IoUringEngine.DEFAULT_ENTRIES);
        }

        /** 4 KiB blocks, O_DIRECT required, no growth of existing files, the default engine. */
        public static Options defaults() {
            return new Options(4096, false, false);
        }

        /** Returns a copy with the given block size. */
        public Options withBlockSize(int size) {
            return new Options(size, allowBufferedFallback, allowGrowth, engine, queueDepth);
        }

        /** Returns a copy that falls back to buffered I/O where O_DIRECT is refused. */
        public Options withBufferedFallback(boolean allow) {
            return new Options(blockSize, allow, allowGrowth, engine, queueDepth);
        }

        /** Returns a copy that extends an existing file shorter than the capacity instead of refusing. */
        public Options withGrowth(boolean allow) {
            return new Options(blockSize, allowBufferedFallback, allow, engine, queueDepth);
        }

        /** Returns a copy with the given I/O engine. */
        public Options withEngine(IoEngine io) {
            return new Options(blockSize, allowBufferedFallback, allowGrowth, io, queueDepth);
        }

        /** Returns a copy whose io_uring rings have {@code depth} entries. */
        public Options withQueueDepth(int depth) {
            return new Options(blockSize, allowBufferedFallback, allowGrowth, engine, depth);
        }
    }

    private DirectFileDevice(String name, Path path, NativeIO io, int fd, boolean direct, int blockSize, long capacity,
                             StoreFileLock lock, IoUringEngine uring) {
        super(name, blockSize, capacity);
        this.io = io;
        this.fd = fd;
        this.path = path;
        this.direct = direct;
        this.lock = lock;
        this.uring = uring;
    }

    /** Opens (creating if needed) {@code path} with {@code capacity} bytes and default options. */
    public static DirectFileDevice open(Path path, long capacity) {
        return open(path, capacity, Options.defaults());
    }

    /**
     * Opens (creating if needed) {@code path} as a device of {@code capacity} bytes. An existing file
     * keeps its contents; a shorter non-empty one is refused unless {@link Options#allowGrowth}.
     *
     * @throws ConfigurationException if the directory is missing or not writable, the capacity is not
     *                                a multiple of the block size, O_DIRECT is refused and no
     *                                fallback is allowed, or an existing file is shorter than the
     *                                capacity and growth is not allowed, or {@link IoEngine#IO_URING}
     *                                is asked for where the kernel refuses io_uring
     * @throws io.most.errors.FileInUseException if another device has the file open
     * @throws DeviceFullException    if the file system cannot hold {@code capacity} bytes
     */
    public static DirectFileDevice open(Path path, long capacity, Options options) {
        return open(path, capacity, options, nativeIO().oDirect());
    }

    /** Opens with {@code directFlag} as the O_DIRECT bit; tests pass a flag the kernel refuses. */
    static DirectFileDevice open(Path path, long capacity, Options options, int directFlag) {
        return open(path, capacity, options, directFlag, IoUringEngine.DEFAULT_MAX_SQE_BYTES);
    }

    /**
     * Opens with io_uring transfers cut into SQEs of at most {@code maxSqeBytes}: tests use a small
     * value to drive the path a short completion or a transfer over the kernel's 2 GiB limit takes.
     */
    static DirectFileDevice open(Path path, long capacity, Options options, int directFlag, int maxSqeBytes) {
        DeviceFiles.checkCreatable(path, capacity, options.blockSize(), "device");
        NativeIO io = nativeIO();
        boolean created = !Files.exists(path);
        int baseFlags = NativeIO.O_RDWR | NativeIO.O_CREAT | NativeIO.O_CLOEXEC;
        int fd;
        boolean direct = true;
        try {
            fd = io.open(path.toString(), baseFlags | directFlag, 0644);
        } catch (NativeIO.NativeException e) {
            if (e.errno != NativeIO.EINVAL) {
                throw new ConfigurationException("cannot open '" + path + "': " + e.getMessage(), e);
            }
            if (!options.allowBufferedFallback()) {
                throw new ConfigurationException("the file system of '" + path + "' refuses O_DIRECT"
                        + " (tmpfs?): put the device on ext4 or xfs, or allow buffered fallback with"
                        + " Options.withBufferedFallback(true)", e);
            }
            LOG.log(System.Logger.Level.WARNING, "O_DIRECT refused for {0}; using buffered I/O", path);
            direct = false;
            try {
                fd = io.open(path.toString(), baseFlags, 0644);
            } catch (NativeIO.NativeException e2) {
                throw new ConfigurationException("cannot open '" + path + "': " + e2.getMessage(), e2);
            }
        }
        StoreFileLock lock;
        try {
            lock = StoreFileLock.acquire(path, "device file");
        } catch (RuntimeException e) {
            closeQuietly(io, fd);
            throw e;
        }
        try {
            checkNotTruncated(path, capacity, options);
        } catch (RuntimeException e) {
            closeQuietly(io, fd);
            lock.close();
            throw e;
        }
        try {
            io.allocate(fd, capacity);
        } catch (NativeIO.NativeException e) {
            // EOPNOTSUPP: the file system cannot preallocate; the device works without (and keeps its fd)
            if (e.errno != NativeIO.EOPNOTSUPP) {
                closeQuietly(io, fd);
                lock.close();
                if (e.errno == NativeIO.ENOSPC) {
                    throw new DeviceFullException("no space to preallocate " + capacity + " bytes for '" + path
                            + "': free space on its file system or choose a smaller capacity");
                }
                throw new DeviceIOException("cannot preallocate '" + path + "': " + e.getMessage(), e);
            }
        }
        if (created) {
            try {
                DeviceFiles.syncParent(io, path);
            } catch (DeviceIOException e) {
                closeQuietly(io, fd);
                lock.close();
                throw e;
            }
        }
        IoUringEngine uring;
        try {
            uring = startEngine(path, fd, direct, options, maxSqeBytes);
        } catch (RuntimeException e) {
            closeQuietly(io, fd);
            lock.close();
            throw e;
        }
        return new DirectFileDevice(DeviceFiles.nameOf(path), path, io, fd, direct, options.blockSize(), capacity, lock,
                uring);
    }

    /** The io_uring engine the options ask for, or null for pread (asked for, or the logged fallback). */
    private static IoUringEngine startEngine(Path path, int fd, boolean direct, Options options, int maxSqeBytes) {
        if (options.engine() == IoEngine.PREAD) {
            return null;
        }
        String why;
        try {
            return IoUringEngine.open(fd, DeviceFiles.nameOf(path), options.blockSize(), direct, options.queueDepth(),
                    maxSqeBytes);
        } catch (NativeIO.NativeException e) {
            why = switch (e.errno) {
                case IoUringSyscalls.ENOSYS -> "the kernel has no io_uring or a seccomp filter blocks it";
                case NativeIO.EPERM -> "io_uring is disabled for this process (sysctl kernel.io_uring_disabled)";
                case NativeIO.ENOMEM -> "the locked-memory limit is too low for a ring (ulimit -l)";
                default -> "io_uring setup failed";
            } + ": " + e.getMessage();
        } catch (UnsupportedOperationException e) {
            why = e.getMessage();
        }
        if (options.engine() == IoEngine.IO_URING) {
            throw new ConfigurationException("device '" + path + "' asks for io_uring, but " + why + "; use"
                    + " IoEngine.AUTO or PREAD (system property " + IoEngine.PROPERTY + "=pread)");
        }
        if (FALLBACK_LOGGED.compareAndSet(false, true)) {
            LOG.log(System.Logger.Level.WARNING, "io_uring unavailable ({0}); devices use pread/pwrite, one I/O"
                    + " in flight per thread", why);
        }
        return null;
    }

    private static void checkNotTruncated(Path path, long capacity, Options options) {
        long size = DeviceFiles.sizeOf(path);
        if (size > 0 && size < capacity && !options.allowGrowth()) {
            throw new ConfigurationException("device file '" + path + "' holds " + size + " bytes, less than the"
                    + " capacity " + capacity + " it is opened with: it was truncated (its data beyond " + size
                    + " bytes is gone) or created smaller; open it with its own size, or allow growth with"
                    + " Options.withGrowth(true)");
        }
    }

    private static NativeIO nativeIO() {
        return NativeIO.get().orElseThrow(() -> new ConfigurationException(
                "DirectFileDevice needs Linux and native access; run with --enable-native-access=io.most.core"
                        + " (or ALL-UNNAMED on the class path), or use another BlockDevice"));
    }

    /** The file under this device. */
    public Path path() {
        return path;
    }

    /** The engine this device runs on: {@link IoEngine#IO_URING} or {@link IoEngine#PREAD}. */
    public IoEngine engine() {
        return uring != null ? IoEngine.IO_URING : IoEngine.PREAD;
    }

    /**
     * Registers {@code region} (typically a buffer pool's frames, allocated once) with the kernel for
     * fixed-buffer I/O: reads and writes whose buffer lies inside it then skip pinning its pages on
     * every I/O ({@code READ_FIXED}/{@code WRITE_FIXED}). Several regions may be registered.
     *
     * <p>The region must stay allocated until {@link #unregisterBuffers()} or {@link #close()}: the
     * kernel holds its pages, and I/O to an address inside it goes to those pages.
     *
     * @return whether fixed-buffer I/O is in use: false on the pread engine, or when the kernel
     *         refused (a locked-memory limit; logged), and then I/O goes on without
     * @throws IllegalArgumentException if the region is not a native segment or the kernel's limit of
     *                                  16384 pieces of 1 GiB would be passed
     * @throws IllegalStateException    if the device is closed
     */
    public boolean registerBuffers(MemorySegment region) {
        ensureOpen();
        if (uring == null) {
            return false;
        }
        return uring.registerBuffer(region) == null;
    }

    /** Drops every registered buffer; call it with no I/O in flight into them, before freeing them. */
    public void unregisterBuffers() {
        ensureOpen();
        if (uring != null) {
            uring.unregisterBuffers();
        }
    }

    private void ensureOpen() {
        if (!isOpen()) {
            throw new IllegalStateException("device '" + name() + "' is closed");
        }
    }

    /** SQEs issued with a registered buffer so far; for tests. */
    long fixedTransfers() {
        return uring == null ? 0 : uring.fixedTransfers();
    }

    /** Rings the io_uring engine has set up (0 on pread); all are released by {@link #close()}. */
    int rings() {
        return uring == null ? 0 : uring.rings();
    }

    /** Whether the file is really open with O_DIRECT (false only after an allowed fallback). */
    public boolean isDirect() {
        return direct;
    }

    @Override
    protected void doRead(long offset, MemorySegment destination) {
        if (uring != null) {
            uring.read(offset, destination);
            return;
        }
        try {
            if (isAligned(destination)) {
                io.preadFully(fd, destination, offset);
            } else {
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment bounce = allocate(arena, destination.byteSize());
                    io.preadFully(fd, bounce, offset);
                    destination.copyFrom(bounce);
                }
            }
        } catch (NativeIO.NativeException e) {
            throw new DeviceIOException(describe(IoOp.READ, offset, destination.byteSize()) + ": " + e.getMessage(), e);
        }
    }

    @Override
    protected void doWrite(long offset, MemorySegment source) {
        if (uring != null) {
            uring.write(offset, source);
            return;
        }
        try {
            if (isAligned(source)) {
                io.pwriteFully(fd, source, offset);
            } else {
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment bounce = allocate(arena, source.byteSize());
                    bounce.copyFrom(source);
                    io.pwriteFully(fd, bounce, offset);
                }
            }
        } catch (NativeIO.NativeException e) {
            String what = describe(IoOp.WRITE, offset, source.byteSize()) + ": " + e.getMessage();
            throw e.errno == NativeIO.ENOSPC ? new DeviceFullException(what) : new DeviceIOException(what, e);
        }
    }

    /** On io_uring, the whole batch is in flight at once (up to the queue depth); else one by one. */
    @Override
    protected void doTransferAll(List<IoRequest> requests) {
        if (uring != null) {
            uring.transferAll(requests);
        } else {
            super.doTransferAll(requests);
        }
    }

    /**
     * On io_uring, a queue with a ring of its own ({@link IoUringQueue}): completions as they land, in
     * any order. On the pread fallback, the default queue of batches run one request at a time.
     */
    @Override
    public IoQueue openQueue(int depth) {
        Batches.checkDepth(name(), depth);
        ensureOpen();
        return uring != null ? uring.openQueue(depth, capacity(), stats()) : new BatchingIoQueue(this, depth);
    }

    @Override
    protected void closeQueues() {
        if (uring != null) {
            uring.closeQueues();
        }
    }

    /**
     * Punches a hole; once the file system has refused one, later discards keep the contents without
     * asking again. A hole never shows a write's bytes elsewhere: it only frees the range's blocks.
     */
    @Override
    protected void doDiscard(long offset, long length) {
        if (punchUnsupported) {
            return;
        }
        try {
            io.punchHole(fd, offset, length);
        } catch (NativeIO.NativeException e) {
            if (e.errno != NativeIO.EOPNOTSUPP && e.errno != NativeIO.ENOSYS) {
                throw new DeviceIOException(describe(IoOp.DISCARD, offset, length) + " failed: " + e.getMessage(), e);
            }
            punchUnsupported = true;
            if (NO_PUNCH_LOGGED.compareAndSet(false, true)) {
                LOG.log(System.Logger.Level.WARNING, "the file system of {0} cannot punch holes ({1}); discards"
                        + " keep the contents of the discarded blocks", path, e.getMessage());
            }
        }
    }

    @Override
    protected void doForce() {
        if (uring != null) {
            uring.fdatasync();
            return;
        }
        try {
            io.fdatasync(fd);
        } catch (NativeIO.NativeException e) {
            throw new DeviceIOException("force of device '" + name() + "' failed: " + e.getMessage(), e);
        }
    }

    @Override
    protected void doClose() {
        try {
            if (uring != null) {
                uring.close(); // before the file: a ring holds the descriptor as a registered file
            }
            io.close(fd);
        } catch (NativeIO.NativeException e) {
            throw new DeviceIOException("close of device '" + name() + "' failed: " + e.getMessage(), e);
        } finally {
            lock.close();
        }
    }

    private boolean isAligned(MemorySegment segment) {
        return segment.isNative() && (segment.address() & (blockSize() - 1)) == 0;
    }

    private static void closeQuietly(NativeIO io, int fd) {
        try {
            io.close(fd);
        } catch (NativeIO.NativeException ignored) {
            // already failing; the original error is more useful
        }
    }

    @Override
    public String toString() {
        return "DirectFileDevice[" + path + ", " + capacity() + " bytes, " + (direct ? "O_DIRECT" : "buffered") + ", "
                + engine().name().toLowerCase(java.util.Locale.ROOT) + "]";
    }
}
