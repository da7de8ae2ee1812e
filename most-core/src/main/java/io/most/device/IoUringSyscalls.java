package io.most.device;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * The three io_uring system calls and the {@code mmap}/{@code munmap} the rings need, as FFM
 * downcalls of libc's variadic {@code syscall(2)} (glibc has no io_uring wrappers and liburing is not
 * a JDK library). The numbers are x86-64's and aarch64's (the generic table gives io_uring the same
 * 425-427 on both); on any other architecture {@link #get()} is empty and devices use {@code pread}.
 * Every argument is passed as a 64-bit integer, which is what the kernel's syscall ABI reads.
 */
final class IoUringSyscalls {
    static final long SYS_IO_URING_SETUP = 425;
    static final long SYS_IO_URING_ENTER = 426;
    static final long SYS_IO_URING_REGISTER = 427;

    static final int PROT_READ_WRITE = 0x1 | 0x2;
    static final int MAP_SHARED_POPULATE = 0x01 | 0x8000;

    static final int EINTR = 4;
    static final int EAGAIN = 11;
    static final int EBUSY = 16;
    static final int ENOSYS = 38;

    private static final Optional<IoUringSyscalls> INSTANCE = load();

    /**
     * Fault injection for tests of the fallback: when non-zero, {@link #setup} fails with this errno
     * as a kernel without io_uring (ENOSYS), a seccomp filter (ENOSYS, EPERM) or
     * {@code kernel.io_uring_disabled} (EPERM) would, none of which a test can arrange otherwise.
     */
    static volatile int refuseSetupWith;

    private final MethodHandle syscall3;
    private final MethodHandle syscall4;
    private final MethodHandle syscall6;
    private final MethodHandle mmap;
    private final MethodHandle munmap;
    /** Holds each thread's errno capture buffer, shared with the POSIX calls. */
    private final NativeIO posix;

    private IoUringSyscalls(NativeIO posix) {
        this.posix = posix;
        Linker linker = Linker.nativeLinker();
        SymbolLookup libc = linker.defaultLookup();
        Linker.Option errno = Linker.Option.captureCallState("errno");
        ValueLayout.OfLong l = ValueLayout.JAVA_LONG;
        ValueLayout p = ValueLayout.ADDRESS;
        MemorySegment sys = libc.find("syscall").orElseThrow(() -> new UnsupportedOperationException("no syscall"));
        syscall3 = linker.downcallHandle(sys, FunctionDescriptor.of(l, l, l, l), errno, Linker.Option.firstVariadicArg(1));
        syscall4 = linker.downcallHandle(sys, FunctionDescriptor.of(l, l, l, l, l, l), errno,
                Linker.Option.firstVariadicArg(1));
        syscall6 = linker.downcallHandle(sys, FunctionDescriptor.of(l, l, l, l, l, l, l, l), errno,
                Linker.Option.firstVariadicArg(1));
        mmap = linker.downcallHandle(libc.find("mmap").orElseThrow(),
                FunctionDescriptor.of(p, p, l, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, l),
                errno);
        munmap = linker.downcallHandle(libc.find("munmap").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, p, l), errno);
    }

    /** The bindings, or empty where io_uring's syscall numbers are unknown or libc cannot be bound. */
    static Optional<IoUringSyscalls> get() {
        return INSTANCE;
    }

    private static Optional<IoUringSyscalls> load() {
        String arch = System.getProperty("os.arch", "");
        if (NativeIO.get().isEmpty() || !(arch.equals("amd64") || arch.equals("x86_64") || arch.equals("aarch64"))) {
            return Optional.empty();
        }
        try {
            return Optional.of(new IoUringSyscalls(NativeIO.get().get()));
        } catch (RuntimeException | LinkageError e) {
            return Optional.empty();
        }
    }

    /** {@code io_uring_setup(entries, params)}; returns the ring's descriptor. */
    int setup(int entries, MemorySegment params) throws NativeIO.NativeException {
        int refused = refuseSetupWith;
        if (refused != 0) {
            throw new NativeIO.NativeException("io_uring_setup", refused);
        }
        MemorySegment state = posix.callState();
        long rc;
        try {
            rc = (long) syscall3.invokeExact(state, SYS_IO_URING_SETUP, (long) entries, params.address());
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
        if (rc < 0) {
            throw new NativeIO.NativeException("io_uring_setup", errno(state));
        }
        return (int) rc;
    }

    /**
     * {@code io_uring_enter(fd, toSubmit, minComplete, flags, NULL, 0)}: returns the number of
     * submissions consumed, or minus errno (the caller decides which errors to retry).
     */
    long enter(int fd, int toSubmit, int minComplete, int flags) {
        MemorySegment state = posix.callState();
        long rc;
        try {
            rc = (long) syscall6.invokeExact(state, SYS_IO_URING_ENTER, (long) fd, (long) toSubmit,
                    (long) minComplete, (long) flags, 0L, 0L);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
        return rc < 0 ? -errno(state) : rc;
    }

    /** {@code io_uring_register(fd, opcode, arg, count)}. */
    void register(int fd, int opcode, MemorySegment arg, int count) throws NativeIO.NativeException {
        MemorySegment state = posix.callState();
        long rc;
        try {
            rc = (long) syscall4.invokeExact(state, SYS_IO_URING_REGISTER, (long) fd, (long) opcode,
                    arg.address(), (long) count);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
        if (rc < 0) {
            throw new NativeIO.NativeException("io_uring_register(" + opcode + ")", errno(state));
        }
    }

    /** Maps {@code length} bytes of the ring {@code fd} at {@code offset}, shared with the kernel. */
    MemorySegment mmap(int fd, long length, long offset) throws NativeIO.NativeException {
        MemorySegment state = posix.callState();
        MemorySegment address;
        try {
            address = (MemorySegment) mmap.invokeExact(state, MemorySegment.NULL, length, PROT_READ_WRITE,
                    MAP_SHARED_POPULATE, fd, offset);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
        if (address.address() == -1L) {
            throw new NativeIO.NativeException("mmap of io_uring ring", errno(state));
        }
        return address.reinterpret(length);
    }

    void munmap(MemorySegment mapping) {
        try {
            int ignored = (int) munmap.invokeExact(posix.callState(), mapping, mapping.byteSize());
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    private int errno(MemorySegment state) {
        return posix.errno(state);
    }
}
