package io.most.device;

import io.most.errors.ConfigurationException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Volatile, byte-addressable far memory: the memory of one NUMA node (a CXL Type-3 expander shows up
 * as a node with memory and no CPUs) or of a device-DAX character device ({@code /dev/daxX.Y}), mapped
 * for loads and stores. Nothing in it survives the process: it is a cache tier, not a durable one.
 *
 * <p><b>NUMA node.</b> An anonymous private mapping is bound with {@code mbind(MPOL_BIND)} to the node
 * alone, then populated ({@code MADV_POPULATE_WRITE}), so every page is allocated on that node at
 * open: a node that cannot hold the mapping fails here, with {@link ConfigurationException}, instead
 * of faulting later on a store. A refused {@code mbind} (a container's seccomp profile without
 * CAP_SYS_NICE answers EPERM, a kernel without NUMA ENOSYS) is an error too, never a silent fallback
 * to local memory: the point of the tier is where its pages live, and a store that measured or sized
 * itself for far memory would otherwise run on near memory without knowing.
 *
 * <p><b>Device DAX.</b> The device (or a file standing in for one) is mapped shared; the kernel
 * places it, so no binding is needed. Its contents are treated as garbage at every open.
 *
 * <p>{@link #close()} unmaps; accesses through {@link #segment()} after it fail with
 * {@link IllegalStateException} rather than touching unmapped memory. Thread-safe.
 */
public final class FarMemory implements AutoCloseable {
    private static final long PAGE = 4096;
    private static final long DAX_ALIGNMENT = 2L << 20;

    private final String description;
    private final int node;
    private final Arena arena;
    private final MemorySegment segment;
    private final AtomicBoolean closed = new AtomicBoolean();

    private FarMemory(String description, int node, Arena arena, MemorySegment segment) {
        this.description = description;
        this.node = node;
        this.arena = arena;
        this.segment = segment;
    }

    /** The NUMA nodes of this machine that have memory, ascending (empty where none are listed). */
    public static List<Integer> memoryNodes() {
        return NumaNodes.withMemory();
    }

    /**
     * Checks that NUMA node {@code node} exists and has memory.
     *
     * @throws ConfigurationException listing the nodes with memory otherwise
     */
    public static void checkNode(int node) {
        List<Integer> nodes = NumaNodes.withMemory();
        if (node < 0 || !nodes.contains(node)) {
            throw new ConfigurationException("NUMA node " + node + " does not exist or has no memory; nodes with"
                    + " memory on this machine: " + nodes + " (a CXL expander is a node without CPUs, see"
                    + " /sys/devices/system/node): configure one of those");
        }
    }

    /**
     * Maps {@code bytes} (a positive multiple of 4 KiB) of NUMA node {@code node}'s memory, every page
     * allocated on that node before this returns.
     *
     * @throws ConfigurationException naming the nodes present if {@code node} does not exist or has no
     *                                memory; if the node has less memory than {@code bytes}, or cannot
     *                                supply it now; if the kernel refuses to bind memory to nodes
     */
    public static FarMemory onNode(int node, long bytes) {
        checkSize(bytes);
        checkNode(node);
        OptionalLong total = NumaNodes.totalBytes(node);
        if (total.isPresent() && bytes > total.getAsLong()) {
            throw new ConfigurationException("far memory of " + bytes + " bytes does not fit NUMA node " + node
                    + ", which has " + total.getAsLong() + " bytes: configure less");
        }
        NativeIO io = nativeIo("bind far memory to NUMA node " + node);
        Arena arena = Arena.ofShared();
        MemorySegment mapped;
        try {
            mapped = io.mmap(bytes, NativeIO.PROT_READ_WRITE,
                    NativeIO.MAP_PRIVATE | NativeIO.MAP_ANONYMOUS | NativeIO.MAP_NORESERVE, -1);
        } catch (NativeIO.NativeException e) {
            arena.close();
            throw new ConfigurationException("cannot map " + bytes + " bytes of far memory: " + e.getMessage()
                    + "; configure less", e);
        }
        MemorySegment segment = mapped.reinterpret(bytes, arena, address -> unmap(io, address, bytes));
        try {
            bind(io, segment, node);
            populate(io, segment, node);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
        return new FarMemory("NUMA node " + node, node, arena, segment);
    }

    /**
     * Maps the first {@code bytes} (a positive multiple of 4 KiB) of the device-DAX device at
     * {@code path}, or of a file standing in for one, which must already be that large.
     *
     * @throws ConfigurationException if the path does not exist, is too small or cannot be mapped
     */
    public static FarMemory devdax(Path path, long bytes) {
        checkSize(bytes);
        if (!Files.exists(path)) {
            throw new ConfigurationException("far-memory device '" + path + "' does not exist: name a device-DAX"
                    + " device such as /dev/dax0.0 (daxctl list shows them), or a NUMA node instead");
        }
        if (Files.isDirectory(path)) {
            throw new ConfigurationException("far-memory device '" + path + "' is a directory: name a device-DAX"
                    + " device such as /dev/dax0.0");
        }
        OptionalLong size = sizeOf(path);
        if (size.isPresent() && size.getAsLong() < bytes) {
            throw new ConfigurationException("far-memory device '" + path + "' holds " + size.getAsLong()
                    + " bytes, less than the " + bytes + " configured: configure less");
        }
        NativeIO io = nativeIo("map far-memory device '" + path + "'");
        Arena arena = Arena.ofShared();
        try {
            int fd = io.open(path.toString(), NativeIO.O_RDWR | NativeIO.O_CLOEXEC, 0);
            // device DAX maps whole multiples of its alignment (2 MiB by default); a stand-in file needs none
            long length = Files.isRegularFile(path) ? bytes : (bytes + DAX_ALIGNMENT - 1) / DAX_ALIGNMENT * DAX_ALIGNMENT;
            MemorySegment mapped;
            try {
                mapped = io.mmap(length, NativeIO.PROT_READ_WRITE, NativeIO.MAP_SHARED, fd);
            } finally {
                io.close(fd); // the mapping keeps the device open
            }
            MemorySegment segment = mapped.reinterpret(length, arena, address -> unmap(io, address, length))
                    .asSlice(0, bytes);
            return new FarMemory("device " + path, -1, arena, segment);
        } catch (NativeIO.NativeException e) {
            arena.close();
            throw new ConfigurationException("cannot map far-memory device '" + path + "': " + e.getMessage()
                    + " (device DAX maps in multiples of its alignment, often 2 MiB)", e);
        }
    }

    private static void checkSize(long bytes) {
        if (bytes <= 0 || bytes % PAGE != 0) {
            throw new ConfigurationException("far memory of " + bytes + " bytes must be a positive multiple of "
                    + PAGE + " bytes");
        }
    }

    private static NativeIO nativeIo(String what) {
        return NativeIO.get().orElseThrow(() -> new ConfigurationException("cannot " + what + ": native calls are"
                + " unavailable on this platform (far memory needs Linux); configure a PM file instead"));
    }

    private static void bind(NativeIO io, MemorySegment segment, int node) {
        try {
            io.mbind(segment, segment.byteSize(), NativeIO.MPOL_BIND, node, NativeIO.MPOL_MF_STRICT | NativeIO.MPOL_MF_MOVE);
        } catch (NativeIO.NativeException e) {
            String why = switch (e.errno) {
                case NativeIO.EPERM -> "the kernel refused (EPERM): in a container, allow mbind (Docker's default"
                        + " seccomp profile does with --cap-add SYS_NICE)";
                case NativeIO.ENOSYS -> "this kernel or architecture has no NUMA memory policy (ENOSYS)";
                case NativeIO.EINVAL -> "the kernel does not know node " + node + " (EINVAL)";
                default -> e.getMessage();
            };
            throw new ConfigurationException("cannot bind far memory to NUMA node " + node + ": " + why
                    + "; far memory is never placed elsewhere silently, so configure a PM file or no PM tier"
                    + " where binding is impossible", e);
        }
    }

    /**
     * Allocates every page now, on the bound node: MADV_POPULATE_WRITE reports a node that cannot supply
     * them as ENOMEM; kernels before 5.14 lack it (EINVAL), and then each page is touched instead.
     */
    private static void populate(NativeIO io, MemorySegment segment, int node) {
        try {
            io.madvise(segment, segment.byteSize(), NativeIO.MADV_POPULATE_WRITE);
        } catch (NativeIO.NativeException e) {
            if (e.errno != NativeIO.EINVAL) {
                throw new ConfigurationException("NUMA node " + node + " cannot supply " + segment.byteSize()
                        + " bytes of far memory now: " + e.getMessage() + "; configure less", e);
            }
            for (long at = 0; at < segment.byteSize(); at += PAGE) {
                segment.set(ValueLayout.JAVA_BYTE, at, (byte) 0);
            }
        }
    }

    private static void unmap(NativeIO io, MemorySegment address, long bytes) {
        try {
            io.munmap(address, bytes);
        } catch (NativeIO.NativeException e) {
            System.getLogger(FarMemory.class.getName()).log(System.Logger.Level.WARNING,
                    "cannot unmap far memory: " + e.getMessage());
        }
    }

    /** The size of a regular file, or of a device-DAX device as sysfs reports it; empty if unknown. */
    private static OptionalLong sizeOf(Path path) {
        try {
            if (Files.isRegularFile(path)) {
                return OptionalLong.of(Files.size(path));
            }
            long rdev = ((Number) Files.getAttribute(path, "unix:rdev")).longValue();
            long major = ((rdev >>> 8) & 0xfff) | ((rdev >>> 32) & ~0xfffL);
            long minor = (rdev & 0xff) | ((rdev >>> 12) & ~0xffL);
            String size = Files.readString(Path.of("/sys/dev/char/" + major + ":" + minor + "/size")).trim();
            return OptionalLong.of(Long.parseLong(size));
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty(); // the mapping itself then says whether the device is large enough
        }
    }

    /** The mapped memory; valid until {@link #close()}. */
    public MemorySegment segment() {
        return segment;
    }

    /** The NUMA node the memory is bound to, or -1 for a device-DAX device. */
    public int node() {
        return node;
    }

    /**
     * The NUMA node that holds the page at {@code offset} of the mapping, as the kernel reports it
     * ({@code get_mempolicy(MPOL_F_NODE | MPOL_F_ADDR)}): to verify a binding.
     *
     * @throws UnsupportedOperationException if the kernel cannot report it
     */
    public int nodeOfPage(long offset) {
        NativeIO io = nativeIo("ask the kernel where far memory lives");
        try {
            return io.nodeOf(segment.asSlice(offset, 1));
        } catch (NativeIO.NativeException e) {
            throw new UnsupportedOperationException("cannot ask the kernel which node holds far memory: "
                    + e.getMessage(), e);
        }
    }

    /** Unmaps the memory; its contents are gone. Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            arena.close();
        }
    }

    @Override
    public String toString() {
        return "far memory on " + description + " (" + segment.byteSize() + " bytes, volatile)";
    }
}
