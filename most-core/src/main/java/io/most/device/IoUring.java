package io.most.device;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * One io_uring instance: its descriptor, the submission and completion rings and the SQE array
 * mapped from the kernel, and the few operations a block device needs (prepare a read, write or
 * fsync; submit and wait; reap completions).
 *
 * <p><b>Not thread-safe: one thread at a time.</b> The rings are single-producer single-consumer
 * queues shared with the kernel; {@link IoUringEngine} leases a whole ring to one batch so no lock is
 * taken per I/O, and the lease's hand-over (a concurrent queue) orders one user's writes before the
 * next user's reads.
 *
 * <p><b>Memory ordering.</b> The kernel reads the SQ tail and writes the SQ head; it writes the CQ
 * tail and reads the CQ head. As liburing does: SQEs and the SQ array are written with plain stores,
 * then the SQ tail is published with a release store; the CQ tail is read with an acquire load before
 * the CQEs it covers, and the CQ head is published with a release store once they have been read.
 * The SQ array is filled once with the identity (slot i holds SQE i), so the SQE for a tail value is
 * simply {@code sqes[tail & mask]}.
 *
 * <p>The completion queue has twice the entries of the submission queue (the kernel's default) and
 * the caller never has more I/Os in flight than {@link #entries()}, so it cannot overflow.
 */
final class IoUring implements AutoCloseable {
    static final byte OP_FSYNC = 3;
    static final byte OP_READ_FIXED = 4;
    static final byte OP_WRITE_FIXED = 5;
    static final byte OP_READ = 22;
    static final byte OP_WRITE = 23;

    static final byte IOSQE_FIXED_FILE = 1;
    static final int IORING_FSYNC_DATASYNC = 1;
    static final int IORING_ENTER_GETEVENTS = 1;
    static final int IORING_REGISTER_BUFFERS = 0;
    static final int IORING_UNREGISTER_BUFFERS = 1;
    static final int IORING_REGISTER_FILES = 2;
    /** Run completion work when the submitter next enters the kernel instead of interrupting it (5.19). */
    static final int IORING_SETUP_COOP_TASKRUN = 1 << 8;
    static final int IORING_SETUP_CLAMP = 1 << 4;
    static final int IORING_FEAT_SINGLE_MMAP = 1;

    private static final long OFF_SQ_RING = 0L;
    private static final long OFF_CQ_RING = 0x8000000L;
    private static final long OFF_SQES = 0x10000000L;
    private static final int SQE_SIZE = 64;
    private static final int CQE_SIZE = 16;
    private static final int PARAMS_SIZE = 120;

    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    private final IoUringSyscalls sys;
    private final int fd;
    private final int entries;
    private final MemorySegment sqRing;
    private final MemorySegment cqRing;
    private final MemorySegment sqes;
    private final long sqHeadOff;
    private final long sqTailOff;
    private final int sqMask;
    private final long cqHeadOff;
    private final long cqTailOff;
    private final int cqMask;
    private final long cqesOff;
    /** Next SQ tail to publish; only this ring's user writes it, so it lives in Java. */
    private int sqTail;
    /** Registered file index 0 holds this descriptor, or -1 when no file is registered. */
    private int registeredFd = -1;
    private boolean closed;
    /** The fixed buffers registered with this ring. */
    private FixedBuffers buffers = FixedBuffers.NONE;

    /**
     * Sets up a ring of at least {@code entries} submission slots (the kernel rounds to a power of
     * two and clamps to its maximum) and maps it.
     *
     * @throws NativeIO.NativeException if the kernel refuses (ENOSYS: too old or seccomp; EPERM:
     *                                  {@code io_uring_disabled}; ENOMEM: locked-memory limit)
     */
    IoUring(IoUringSyscalls sys, int entries) throws NativeIO.NativeException {
        this.sys = sys;
        int ringFd;
        MemorySegment params;
        try (Arena arena = Arena.ofConfined()) {
            params = arena.allocate(PARAMS_SIZE, 8);
            params.set(ValueLayout.JAVA_INT, 8, IORING_SETUP_CLAMP | IORING_SETUP_COOP_TASKRUN);
            int fdTry;
            try {
                fdTry = sys.setup(entries, params);
            } catch (NativeIO.NativeException e) {
                if (e.errno != NativeIO.EINVAL) {
                    throw e;
                }
                // a kernel older than 5.19 does not know COOP_TASKRUN: the ring works without it
                params.fill((byte) 0);
                params.set(ValueLayout.JAVA_INT, 8, IORING_SETUP_CLAMP);
                fdTry = sys.setup(entries, params);
            }
            ringFd = fdTry;
            params = MemorySegment.ofArray(params.toArray(ValueLayout.JAVA_BYTE));
        }
        this.fd = ringFd;
        try {
            this.entries = params.get(ValueLayout.JAVA_INT_UNALIGNED, 0);
            int cqEntries = params.get(ValueLayout.JAVA_INT_UNALIGNED, 4);
            int features = params.get(ValueLayout.JAVA_INT_UNALIGNED, 20);
            int sq = 40;
            int cq = 80;
            sqHeadOff = params.get(ValueLayout.JAVA_INT_UNALIGNED, sq);
            sqTailOff = params.get(ValueLayout.JAVA_INT_UNALIGNED, sq + 4);
            long sqMaskOff = params.get(ValueLayout.JAVA_INT_UNALIGNED, sq + 8);
            long sqArrayOff = params.get(ValueLayout.JAVA_INT_UNALIGNED, sq + 24);
            cqHeadOff = params.get(ValueLayout.JAVA_INT_UNALIGNED, cq);
            cqTailOff = params.get(ValueLayout.JAVA_INT_UNALIGNED, cq + 4);
            long cqMaskOff = params.get(ValueLayout.JAVA_INT_UNALIGNED, cq + 8);
            cqesOff = params.get(ValueLayout.JAVA_INT_UNALIGNED, cq + 20);
            long sqSize = sqArrayOff + (long) entries * Integer.BYTES;
            long cqSize = cqesOff + (long) cqEntries * CQE_SIZE;
            if ((features & IORING_FEAT_SINGLE_MMAP) != 0) {
                sqRing = sys.mmap(fd, Math.max(sqSize, cqSize), OFF_SQ_RING);
                cqRing = sqRing;
            } else {
                sqRing = sys.mmap(fd, sqSize, OFF_SQ_RING);
                cqRing = mapOrUnmap(cqSize, OFF_CQ_RING, sqRing);
            }
            sqes = mapSqesOrUnmap((long) entries * SQE_SIZE);
            sqMask = sqRing.get(ValueLayout.JAVA_INT, sqMaskOff);
            cqMask = cqRing.get(ValueLayout.JAVA_INT, cqMaskOff);
            for (int i = 0; i < entries; i++) {
                sqRing.set(ValueLayout.JAVA_INT, sqArrayOff + (long) i * Integer.BYTES, i);
            }
            sqTail = (int) INT.getAcquire(sqRing, sqTailOff);
        } catch (NativeIO.NativeException | RuntimeException e) {
            closeFd();
            throw e;
        }
    }

    private MemorySegment mapOrUnmap(long size, long offset, MemorySegment mapped) throws NativeIO.NativeException {
        try {
            return sys.mmap(fd, size, offset);
        } catch (NativeIO.NativeException e) {
            sys.munmap(mapped);
            throw e;
        }
    }

    private MemorySegment mapSqesOrUnmap(long size) throws NativeIO.NativeException {
        try {
            return sys.mmap(fd, size, OFF_SQES);
        } catch (NativeIO.NativeException e) {
            sys.munmap(sqRing);
            if (cqRing != sqRing) {
                sys.munmap(cqRing);
            }
            throw e;
        }
    }

    /** Submission slots: the most I/Os this ring may have in flight. */
    int entries() {
        return entries;
    }

    /**
     * Registers {@code fileFd} as fixed file 0, so SQEs name it by index and the kernel skips looking
     * the descriptor up (and taking a reference on it) for every I/O.
     */
    void registerFile(int fileFd) throws NativeIO.NativeException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fds = arena.allocateFrom(ValueLayout.JAVA_INT, fileFd);
            sys.register(fd, IORING_REGISTER_FILES, fds, 1);
        }
        registeredFd = fileFd;
    }

    /**
     * Makes this ring's fixed buffers {@code wanted} (pieces 0..n-1): the kernel pins their pages once
     * here instead of on every I/O, for {@link #OP_READ_FIXED}/{@link #OP_WRITE_FIXED}. No-op when
     * the ring already has that generation. On failure the ring has no fixed buffers.
     */
    void syncBuffers(FixedBuffers wanted) throws NativeIO.NativeException {
        if (wanted.generation == buffers.generation) {
            return;
        }
        if (buffers.pieces.length > 0) {
            buffers = FixedBuffers.NONE;
            sys.register(fd, IORING_UNREGISTER_BUFFERS, MemorySegment.NULL, 0);
        }
        if (wanted.pieces.length > 0) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment iovecs = arena.allocate(16L * wanted.pieces.length, 8);
                for (int i = 0; i < wanted.pieces.length; i++) {
                    iovecs.set(ValueLayout.JAVA_LONG, 16L * i, wanted.pieces[i].address());
                    iovecs.set(ValueLayout.JAVA_LONG, 16L * i + 8, wanted.pieces[i].byteSize());
                }
                sys.register(fd, IORING_REGISTER_BUFFERS, iovecs, wanted.pieces.length);
            }
        }
        buffers = wanted;
    }

    /** The fixed buffers this ring has registered. */
    FixedBuffers buffers() {
        return buffers;
    }

    /** Free submission slots: entries minus the SQEs written but not yet consumed by the kernel. */
    int freeSlots() {
        return entries - (sqTail - (int) INT.getAcquire(sqRing, sqHeadOff));
    }

    /** SQEs written and not yet consumed by the kernel: what the next {@link #submitAndWait} submits. */
    int unsubmitted() {
        return sqTail - (int) INT.getAcquire(sqRing, sqHeadOff);
    }

    /**
     * Writes an SQE for a read or write of {@code length} bytes at {@code address} and file
     * {@code offset}; {@code bufIndex} is the registered buffer for the _FIXED opcodes (else ignored).
     * The caller checked {@link #freeSlots()}.
     */
    void prepareTransfer(byte opcode, int fileFd, long offset, long address, int length, int bufIndex, long userData) {
        MemorySegment sqe = nextSqe(opcode, fileFd, userData);
        sqe.set(ValueLayout.JAVA_LONG, 8, offset);
        sqe.set(ValueLayout.JAVA_LONG, 16, address);
        sqe.set(ValueLayout.JAVA_INT, 24, length);
        sqe.set(ValueLayout.JAVA_SHORT, 40, (short) bufIndex);
    }

    /** Writes an SQE for {@code fdatasync} of {@code fileFd}. */
    void prepareFsync(int fileFd, long userData) {
        MemorySegment sqe = nextSqe(OP_FSYNC, fileFd, userData);
        sqe.set(ValueLayout.JAVA_INT, 28, IORING_FSYNC_DATASYNC);
    }

    private MemorySegment nextSqe(byte opcode, int fileFd, long userData) {
        MemorySegment sqe = sqes.asSlice((long) (sqTail & sqMask) * SQE_SIZE, SQE_SIZE);
        sqe.fill((byte) 0);
        sqe.set(ValueLayout.JAVA_BYTE, 0, opcode);
        if (fileFd == registeredFd) {
            sqe.set(ValueLayout.JAVA_BYTE, 1, IOSQE_FIXED_FILE);
            sqe.set(ValueLayout.JAVA_INT, 4, 0);
        } else {
            sqe.set(ValueLayout.JAVA_INT, 4, fileFd);
        }
        sqe.set(ValueLayout.JAVA_LONG, 32, userData);
        sqTail++;
        return sqe;
    }

    /**
     * Publishes the prepared SQEs and enters the kernel once to submit them and to wait until at
     * least {@code minComplete} completions are in the CQ (0: do not wait). Retries on EINTR (a
     * signal) and, after the caller reaped, on EAGAIN/EBUSY (the kernel is short of resources).
     *
     * @return 0, or minus errno of an error the caller must report
     */
    int submitAndWait(int minComplete) {
        INT.setRelease(sqRing, sqTailOff, sqTail);
        while (true) {
            int pending = sqTail - (int) INT.getAcquire(sqRing, sqHeadOff);
            if (pending == 0 && (minComplete == 0 || ready() >= minComplete)) {
                return 0;
            }
            long rc = sys.enter(fd, pending, minComplete, minComplete > 0 ? IORING_ENTER_GETEVENTS : 0);
            if (rc >= 0) {
                if (pending == 0 || (int) INT.getAcquire(sqRing, sqHeadOff) == sqTail) {
                    return 0;
                }
                continue; // part was consumed (resource shortage): submit the rest
            }
            int errno = (int) -rc;
            if (errno == IoUringSyscalls.EINTR) {
                continue;
            }
            if ((errno == IoUringSyscalls.EAGAIN || errno == IoUringSyscalls.EBUSY) && ready() > 0) {
                return 0; // completions are waiting: the caller reaps them, which frees what the kernel lacks
            }
            if (errno == IoUringSyscalls.EAGAIN || errno == IoUringSyscalls.EBUSY) {
                // the kernel is short of memory for requests and none of ours is ready to free some:
                // back off briefly instead of spinning on one of the machine's few cores
                java.util.concurrent.locks.LockSupport.parkNanos(50_000);
                continue;
            }
            return -errno;
        }
    }

    /**
     * Takes back the SQEs published but not consumed by the kernel (after {@code io_uring_enter}
     * failed) and returns their user data. Safe without SQPOLL: the kernel reads the SQ only inside
     * {@code io_uring_enter}, which this ring's single user is not in.
     */
    long[] retractUnsubmitted() {
        int head = (int) INT.getAcquire(sqRing, sqHeadOff);
        int n = sqTail - head;
        long[] userData = new long[n];
        for (int k = 0; k < n; k++) {
            userData[k] = sqes.get(ValueLayout.JAVA_LONG, (long) ((head + k) & sqMask) * SQE_SIZE + 32);
        }
        sqTail = head;
        INT.setRelease(sqRing, sqTailOff, sqTail);
        return userData;
    }

    /** Completions available to reap. */
    int ready() {
        return (int) INT.getAcquire(cqRing, cqTailOff) - (int) INT.getAcquire(cqRing, cqHeadOff);
    }

    /** Receives one completion. */
    interface CompletionSink {
        void complete(long userData, int result);
    }

    /** Hands every available completion to {@code sink} and frees their CQ slots; returns how many. */
    int reap(CompletionSink sink) {
        int head = (int) INT.getAcquire(cqRing, cqHeadOff);
        int tail = (int) INT.getAcquire(cqRing, cqTailOff);
        int h = head;
        try {
            for (; h != tail; h++) {
                long cqe = cqesOff + (long) (h & cqMask) * CQE_SIZE;
                sink.complete(cqRing.get(ValueLayout.JAVA_LONG, cqe), cqRing.get(ValueLayout.JAVA_INT, cqe + 8));
            }
        } finally {
            // one release store for all of them: the CQEs were read before the kernel may reuse their slots
            INT.setRelease(cqRing, cqHeadOff, h);
        }
        return tail - head;
    }

    /** Unmaps the rings and closes the descriptor; the caller has no I/O in flight. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        sys.munmap(sqes);
        sys.munmap(sqRing);
        if (cqRing != sqRing) {
            sys.munmap(cqRing);
        }
        closeFd();
    }

    private void closeFd() {
        NativeIO.get().ifPresent(io -> {
            try {
                io.close(fd);
            } catch (NativeIO.NativeException ignored) {
                // close(2) of a ring fails only for a bad descriptor, and this one is ours
            }
        });
    }
}
