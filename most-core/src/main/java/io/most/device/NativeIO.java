package io.most.device;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Locale;
import java.util.Optional;

/**
 * POSIX file calls through FFM downcalls. Used instead of {@code FileChannel} because (a) it can
 * open files with O_DIRECT and preallocate them, and (b) a native {@code pread} cannot be aborted by
 * {@link Thread#interrupt()}, whereas an interrupted {@code FileChannel} closes itself for every
 * thread. Every call returns the raw result; failures carry errno in {@link NativeException}.
 */
final class NativeIO {
    static final int O_RDWR = 0x2;
    static final int O_CREAT = 0x40;
    static final int O_CLOEXEC = 0x80000;
    static final int LOCK_EX = 2;
    static final int LOCK_NB = 4;
    static final int EPERM = 1;
    static final int EINTR = 4;
    static final int EWOULDBLOCK = 11;
    static final int ENOMEM = 12;
    static final int EINVAL = 22;
    static final int ENOSPC = 28;
    static final int ENOSYS = 38;
    static final int EOPNOTSUPP = 95;
    static final int FALLOC_FL_KEEP_SIZE = 0x1;
    static final int FALLOC_FL_PUNCH_HOLE = 0x2;
    private static final int PR_SET_TIMERSLACK = 29;

    private static final Optional<NativeIO> INSTANCE = load();

    private final int oDirect;
    private final MethodHandle open;
    private final MethodHandle pread;
    private final MethodHandle pwrite;
    private final MethodHandle fdatasync;
    private final MethodHandle fsync;
    private final MethodHandle close;
    private final MethodHandle posixFallocate;
    private final MethodHandle fallocate;
    private final MethodHandle strerror;
    private final MethodHandle prctl;
    private final MethodHandle flock;
    private final MethodHandle mmap;
    private final MethodHandle munmap;
    private final MethodHandle madvise;
    /** {@code syscall(SYS_mbind, ...)}: glibc has no mbind wrapper (libnuma's is not linked). */
    private final MethodHandle mbind;
    /** {@code syscall(SYS_get_mempolicy, ...)}. */
    private final MethodHandle getMempolicy;
    /** The architecture's mbind and get_mempolicy numbers, or -1 where this class does not know them. */
    private final long sysMbind;
    private final long sysGetMempolicy;
    private final StructLayout captureLayout;
    private final VarHandle errnoHandle;
    /**
     * Each thread's errno capture buffer for the I/O calls, allocated once: a confined arena per
     * pread/pwrite cost a native allocation and a free on every page read and write.
     */
    private final ThreadLocal<MemorySegment> ioCallState;

    private NativeIO(int oDirect, long sysMbind, long sysGetMempolicy) {
        this.oDirect = oDirect;
        this.sysMbind = sysMbind;
        this.sysGetMempolicy = sysGetMempolicy;
        Linker linker = Linker.nativeLinker();
        SymbolLookup libc = linker.defaultLookup();
        Linker.Option errno = Linker.Option.captureCallState("errno");
        captureLayout = Linker.Option.captureStateLayout();
        errnoHandle = captureLayout.varHandle(MemoryLayout.PathElement.groupElement("errno"));
        ioCallState = ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(captureLayout));
        ValueLayout.OfInt i = ValueLayout.JAVA_INT;
        ValueLayout.OfLong l = ValueLayout.JAVA_LONG;
        ValueLayout p = ValueLayout.ADDRESS;
        open = linker.downcallHandle(find(libc, "open"), FunctionDescriptor.of(i, p, i, i),
                errno, Linker.Option.firstVariadicArg(2));
        pread = linker.downcallHandle(find(libc, "pread"), FunctionDescriptor.of(l, i, p, l, l), errno);
        pwrite = linker.downcallHandle(find(libc, "pwrite"), FunctionDescriptor.of(l, i, p, l, l), errno);
        fdatasync = linker.downcallHandle(find(libc, "fdatasync"), FunctionDescriptor.of(i, i), errno);
        fsync = linker.downcallHandle(find(libc, "fsync"), FunctionDescriptor.of(i, i), errno);
        close = linker.downcallHandle(find(libc, "close"), FunctionDescriptor.of(i, i), errno);
        posixFallocate = linker.downcallHandle(find(libc, "posix_fallocate"), FunctionDescriptor.of(i, i, l, l));
        fallocate = linker.downcallHandle(find(libc, "fallocate"), FunctionDescriptor.of(i, i, i, l, l), errno);
        flock = linker.downcallHandle(find(libc, "flock"), FunctionDescriptor.of(i, i, i), errno);
        strerror = linker.downcallHandle(find(libc, "strerror"), FunctionDescriptor.of(p, i));
        mmap = linker.downcallHandle(find(libc, "mmap"), FunctionDescriptor.of(p, p, l, i, i, i, l), errno);
        munmap = linker.downcallHandle(find(libc, "munmap"), FunctionDescriptor.of(i, p, l), errno);
        madvise = linker.downcallHandle(find(libc, "madvise"), FunctionDescriptor.of(i, p, l, i), errno);
        MemorySegment syscall = find(libc, "syscall");
        // long syscall(long number, ...): every variadic argument is passed as a long or a pointer
        mbind = linker.downcallHandle(syscall, FunctionDescriptor.of(l, l, p, l, l, p, l, l),
                errno, Linker.Option.firstVariadicArg(1));
        getMempolicy = linker.downcallHandle(syscall, FunctionDescriptor.of(l, l, p, p, l, p, l),
                errno, Linker.Option.firstVariadicArg(1));
        prctl = linker.downcallHandle(find(libc, "prctl"), FunctionDescriptor.of(i, i, l),
                Linker.Option.firstVariadicArg(1));
    }

    /** The bindings, or empty on a platform where they are unavailable (not Linux, no libc). */
    static Optional<NativeIO> get() {
        return INSTANCE;
    }

    private static Optional<NativeIO> load() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (!os.contains("linux")) {
            return Optional.empty();
        }
        String arch = System.getProperty("os.arch", "");
        // O_DIRECT differs between architectures (asm-generic vs x86).
        int oDirect = switch (arch) {
            case "amd64", "x86_64", "x86", "i386" -> 0x4000;
            case "aarch64", "arm" -> 0x10000;
            case "ppc64le", "ppc64" -> 0x20000;
            default -> 0x4000;
        };
        // mbind and get_mempolicy: arch/x86/entry/syscalls/syscall_64.tbl, include/uapi/asm-generic/unistd.h
        long[] numa = switch (arch) {
            case "amd64", "x86_64" -> new long[] {237, 239};
            case "aarch64" -> new long[] {235, 236};
            default -> new long[] {-1, -1};
        };
        try {
            return Optional.of(new NativeIO(oDirect, numa[0], numa[1]));
        } catch (RuntimeException | LinkageError e) {
            System.getLogger(NativeIO.class.getName()).log(System.Logger.Level.WARNING,
                    "native file I/O unavailable: " + e);
            return Optional.empty();
        }
    }

    private static MemorySegment find(SymbolLookup lookup, String name) {
        return lookup.find(name).orElseThrow(() -> new UnsupportedOperationException("libc has no " + name));
    }

    int oDirect() {
        return oDirect;
    }

    /** open(2); returns the descriptor. */
    int open(String path, int flags, int mode) throws NativeException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(captureLayout);
            MemorySegment cPath = arena.allocateFrom(path);
            while (true) {
                int fd = (int) open.invokeExact(state, cPath, flags, mode);
                if (fd >= 0) {
                    return fd;
                }
                int err = errno(state);
                if (err != EINTR) {
                    throw new NativeException("open", err);
                }
            }
        } catch (NativeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** Reads exactly {@code length} bytes or throws; a short read (end of file) is errno 0. */
    void preadFully(int fd, MemorySegment buffer, long offset) throws NativeException {
        transferFully(true, fd, buffer, offset);
    }

    /** Writes exactly {@code buffer.byteSize()} bytes or throws. */
    void pwriteFully(int fd, MemorySegment buffer, long offset) throws NativeException {
        transferFully(false, fd, buffer, offset);
    }

    private void transferFully(boolean read, int fd, MemorySegment buffer, long offset) throws NativeException {
        MemorySegment state = ioCallState.get();
        try {
            long done = 0;
            long length = buffer.byteSize();
            while (done < length) {
                MemorySegment rest = buffer.asSlice(done);
                long n = read
                        ? (long) pread.invokeExact(state, fd, rest, length - done, offset + done)
                        : (long) pwrite.invokeExact(state, fd, rest, length - done, offset + done);
                if (n > 0) {
                    done += n;
                } else if (n == 0) {
                    throw new NativeException(read ? "pread (end of file)" : "pwrite (no progress)", 0);
                } else {
                    int err = errno(state);
                    if (err != EINTR) {
                        throw new NativeException(read ? "pread" : "pwrite", err);
                    }
                }
            }
        } catch (NativeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    void fdatasync(int fd) throws NativeException {
        simpleCall(fdatasync, "fdatasync", fd);
    }

    /**
     * Makes a directory's entries durable, so that a file just created in it survives a power loss
     * (POSIX requires fsync of the directory for that, not only of the file).
     */
    void syncDirectory(String directory) throws NativeException {
        int fd = open(directory, O_CLOEXEC, 0); // O_RDONLY is 0
        try {
            simpleCall(fsync, "fsync", fd);
        } finally {
            close(fd);
        }
    }

    /** {@code flock(fd, operation)}: BSD locks belong to the open file, so no other fd can drop them. */
    void flock(int fd, int operation) throws NativeException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(captureLayout);
            int rc = (int) flock.invokeExact(state, fd, operation);
            if (rc != 0) {
                throw new NativeException("flock", errno(state));
            }
        } catch (NativeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    void close(int fd) throws NativeException {
        simpleCall(close, "close", fd);
    }

    private void simpleCall(MethodHandle handle, String what, int fd) throws NativeException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(captureLayout);
            int rc = (int) handle.invokeExact(state, fd);
            if (rc != 0) {
                throw new NativeException(what, errno(state));
            }
        } catch (NativeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** Reserves disk blocks for {@code [0, length)} so later writes cannot fail for lack of space. */
    void allocate(int fd, long length) throws NativeException {
        int rc;
        try {
            rc = (int) posixFallocate.invokeExact(fd, 0L, length);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
        if (rc != 0) {
            throw new NativeException("posix_fallocate", rc);
        }
    }

    /**
     * {@code fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, offset, length)}: frees the
     * file's blocks in the range (they read as zeros afterwards) without changing its size. Throws
     * with EOPNOTSUPP (or ENOSYS) where the file system or kernel cannot punch holes.
     */
    void punchHole(int fd, long offset, long length) throws NativeException {
        MemorySegment state = ioCallState.get();
        try {
            while (true) {
                int rc = (int) fallocate.invokeExact(state, fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, offset, length);
                if (rc == 0) {
                    return;
                }
                int err = errno(state);
                if (err != EINTR) {
                    throw new NativeException("fallocate(PUNCH_HOLE)", err);
                }
            }
        } catch (NativeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** Sets the calling thread's timer slack, so that short parks wake closer to their deadline. */
    boolean setTimerSlack(long nanos) {
        try {
            return (int) prctl.invokeExact(PR_SET_TIMERSLACK, nanos) == 0;
        } catch (Throwable t) {
            return false;
        }
    }

    static final int PROT_READ_WRITE = 0x1 | 0x2;
    static final int MAP_SHARED = 0x01;
    static final int MAP_PRIVATE = 0x02;
    static final int MAP_ANONYMOUS = 0x20;
    static final int MAP_NORESERVE = 0x4000;
    static final int MADV_POPULATE_WRITE = 23;
    static final int MPOL_BIND = 2;
    static final int MPOL_MF_STRICT = 1;
    static final int MPOL_MF_MOVE = 2;
    private static final long MPOL_F_NODE = 1;
    private static final long MPOL_F_ADDR = 2;

    /** {@code mmap(NULL, length, prot, flags, fd, 0)}; returns the address, {@code length} bytes long. */
    MemorySegment mmap(long length, int prot, int flags, int fd) throws NativeException {
        MemorySegment state = ioCallState.get();
        try {
            MemorySegment address = (MemorySegment) mmap.invokeExact(state, MemorySegment.NULL, length, prot, flags, fd,
                    0L);
            if (address.address() == -1L) {
                throw new NativeException("mmap", errno(state));
            }
            return address.reinterpret(length);
        } catch (NativeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    void munmap(MemorySegment address, long length) throws NativeException {
        MemorySegment state = ioCallState.get();
        try {
            if ((int) munmap.invokeExact(state, address, length) != 0) {
                throw new NativeException("munmap", errno(state));
            }
        } catch (NativeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    void madvise(MemorySegment address, long length, int advice) throws NativeException {
        MemorySegment state = ioCallState.get();
        try {
            if ((int) madvise.invokeExact(state, address, length, advice) != 0) {
                throw new NativeException("madvise", errno(state));
            }
        } catch (NativeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** Whether this architecture's NUMA system call numbers are known ({@link #mbind}, {@link #nodeOf}). */
    boolean hasNumaCalls() {
        return sysMbind >= 0;
    }

    /**
     * {@code mbind(address, length, mode, {node}, maxnode, flags)}: the pages of the range are placed
     * by {@code mode} on {@code node} alone.
     */
    void mbind(MemorySegment address, long length, int mode, int node, int flags) throws NativeException {
        if (sysMbind < 0) {
            throw new NativeException("mbind (unknown system call number on " + System.getProperty("os.arch") + ")",
                    ENOSYS);
        }
        MemorySegment state = ioCallState.get();
        try (Arena arena = Arena.ofConfined()) {
            int words = node / 64 + 1;
            MemorySegment mask = arena.allocate(ValueLayout.JAVA_LONG, words);
            mask.setAtIndex(ValueLayout.JAVA_LONG, node / 64, 1L << (node % 64));
            // the kernel reads maxnode - 1 bits (a historical off-by-one that libnuma also compensates for)
            long maxnode = words * 64L + 1;
            long rc = (long) mbind.invokeExact(state, sysMbind, address, length, (long) mode, mask, maxnode, (long) flags);
            if (rc != 0) {
                throw new NativeException("mbind", errno(state));
            }
        } catch (NativeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /**
     * The NUMA node holding the page at {@code address} ({@code get_mempolicy} with MPOL_F_NODE |
     * MPOL_F_ADDR), faulting it in if it has not been touched.
     */
    int nodeOf(MemorySegment address) throws NativeException {
        if (sysGetMempolicy < 0) {
            throw new NativeException("get_mempolicy (unknown system call number on "
                    + System.getProperty("os.arch") + ")", ENOSYS);
        }
        MemorySegment state = ioCallState.get();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment node = arena.allocate(ValueLayout.JAVA_INT);
            long rc = (long) getMempolicy.invokeExact(state, sysGetMempolicy, node, MemorySegment.NULL, 0L, address,
                    MPOL_F_NODE | MPOL_F_ADDR);
            if (rc != 0) {
                throw new NativeException("get_mempolicy", errno(state));
            }
            return node.get(ValueLayout.JAVA_INT, 0);
        } catch (NativeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    String strerror(int errno) {
        try {
            MemorySegment s = (MemorySegment) strerror.invokeExact(errno);
            return s.reinterpret(256).getString(0);
        } catch (Throwable t) {
            return "errno " + errno;
        }
    }

    int errno(MemorySegment state) {
        return (int) errnoHandle.get(state, 0L);
    }

    /**
     * This thread's errno capture buffer, for other bindings in this package whose downcalls capture
     * errno ({@link IoUringSyscalls}); valid until the next call on this thread.
     */
    MemorySegment callState() {
        return ioCallState.get();
    }

    /** A failed native call with its errno. */
    static final class NativeException extends Exception {
        private static final long serialVersionUID = 1L;
        final int errno;

        NativeException(String call, int errno) {
            super(call + " failed: " + (errno == 0 ? "no data" : INSTANCE.map(n -> n.strerror(errno)).orElse("")
                    + " (errno " + errno + ")"));
            this.errno = errno;
        }
    }
}
