package io.most.device;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Asynchronous file I/O through io_uring for one open file: a {@link DirectFileDevice}'s reads,
 * writes, batches and {@code fdatasync} when the kernel allows io_uring.
 *
 * <p><b>Threading: a ring per batch in flight, leased from a pool.</b> A caller leases a whole
 * {@link IoUring}, submits its batch, waits for the batch's completions in the same
 * {@code io_uring_enter} that submits it, reaps them from the mapped CQ, and returns the ring. The
 * alternatives were worse for a page store whose callers are many short-lived or virtual threads:
 * <ul>
 *   <li>a shared ring with a submission lock needs completion dispatch: one thread must reap for all,
 *       waking the owner of each CQE (a handoff, a second context switch per I/O on a 2-core machine),
 *       and the lock is taken per I/O;</li>
 *   <li>a ring per thread (a {@code ThreadLocal}) leaks a descriptor and three mappings per thread that
 *       ever did I/O, including every virtual thread, and the device cannot close rings owned by other
 *       threads.</li>
 * </ul>
 * A leased ring is used by one thread at a time, so the SQ and CQ are touched without locks and the
 * pool is the only synchronization (once per batch, not per I/O). The pool grows to the number of
 * batches in flight at once (at most {@link #MAX_RINGS}; further callers wait for a ring) and keeps
 * idle rings for reuse; {@link #close()} unmaps them all. Each ring registers the device's descriptor
 * as fixed file 0 (no descriptor lookup per I/O).
 *
 * <p><b>Queues.</b> An {@link IoQueue} ({@link #openQueue}) is the exception: it keeps requests in flight
 * across its owner's calls, so it owns a ring outside the pool for its whole life, and the device's
 * close finishes the open queues ({@link #closeQueues}) before anything else.
 *
 * <p><b>Why no library.</b> liburing is C and not in the JDK; Netty's io_uring transport
 * ({@code netty-transport-native-io_uring}) is built around sockets and its own event loops, offers no
 * positional file read/write API for a caller's memory, and would put Netty and a JNI library into
 * most-core, whose rule is the JDK alone. The kernel ABI used here is four syscalls and three
 * structures, stable since 5.1 ({@code IORING_OP_READ}/{@code WRITE} since 5.6).
 *
 * <p><b>Registered buffers.</b> A caller that owns long-lived I/O memory (a buffer pool's frames)
 * registers it once with {@link #registerBuffer}; a transfer whose buffer lies inside it then goes as
 * {@code READ_FIXED}/{@code WRITE_FIXED}, and the kernel skips pinning and unpinning the pages on every
 * I/O. Other buffers go as plain {@code READ}/{@code WRITE}: registering per batch would cost more than
 * the pinning it saves. Each ring brings its registration up to date when it is leased (a generation
 * number says whether it must), so a batch only ever names the buffers its own ring has.
 *
 * <p><b>Batches</b> larger than a ring are split: the ring is kept filled, refilled as completions
 * arrive, never more in flight than its entries (so the CQ cannot overflow), never a request dropped.
 * A short completion (fewer bytes than asked) is resubmitted for the rest; a completion of zero bytes
 * (end of file) or an error fails that request only.
 */
final class IoUringEngine implements AutoCloseable {
    /** Ring entries: I/Os one batch keeps in flight (a modern NVMe SSD saturates at 32-128). */
    static final int DEFAULT_ENTRIES = 256;
    /** Rings in flight at once; a caller beyond this waits for a ring to come back. */
    static final int MAX_RINGS = 256;
    /** Largest transfer of one SQE: the kernel caps one read/write at 2 GiB - 4 KiB anyway. */
    static final int DEFAULT_MAX_SQE_BYTES = 1 << 30;
    /** Resubmissions of one request after EAGAIN/EINTR completions before it is failed. */
    static final int MAX_RETRIES = 64;

    private final IoUringSyscalls sys;
    private final int fileFd;
    private final String device;
    private final int blockSize;
    private final boolean direct;
    private final int entries;
    private final int maxSqeBytes;
    private final ArrayDeque<IoUring> idle = new ArrayDeque<>();
    private final List<IoUring> all = new ArrayList<>();
    private int maxRings = MAX_RINGS;
    private boolean closed;
    /**
     * The fixed buffers rings should have; written under this monitor, volatile so that an
     * {@link IoUringQueue} can check its ring against it on every submission without taking the lock.
     */
    private volatile FixedBuffers fixed = FixedBuffers.NONE;
    private int generations;
    private final LongAdder fixedTransfers = new LongAdder();
    /** The open queues, each with a ring of its own (not in {@link #all}); guarded by this. */
    private final Set<IoUringQueue> queues = new HashSet<>();
    /** Set once the device began to close: no queue opens any more; guarded by this. */
    private boolean queuesClosed;
    private static final System.Logger LOG = System.getLogger(IoUringEngine.class.getName());

    private IoUringEngine(IoUringSyscalls sys, int fileFd, String device, int blockSize, boolean direct,
                          int entries, int maxSqeBytes) {
        this.sys = sys;
        this.fileFd = fileFd;
        this.device = device;
        this.blockSize = blockSize;
        this.direct = direct;
        this.entries = entries;
        this.maxSqeBytes = maxSqeBytes;
    }

    /**
     * Sets up the first ring for {@code fileFd}, proving io_uring works here.
     *
     * @throws NativeIO.NativeException why io_uring is unavailable (ENOSYS: old kernel or seccomp;
     *                                  EPERM: {@code kernel.io_uring_disabled}; ENOMEM: memlock limit)
     * @throws UnsupportedOperationException on an architecture without known io_uring syscalls
     */
    static IoUringEngine open(int fileFd, String device, int blockSize, boolean direct, int entries, int maxSqeBytes)
            throws NativeIO.NativeException {
        IoUringSyscalls sys = IoUringSyscalls.get().orElseThrow(() -> new UnsupportedOperationException(
                "no io_uring syscall binding for os.arch " + System.getProperty("os.arch")));
        if (maxSqeBytes <= 0 || maxSqeBytes % blockSize != 0) {
            throw new IllegalArgumentException("maxSqeBytes " + maxSqeBytes + " must be a positive multiple of "
                    + blockSize);
        }
        IoUringEngine engine = new IoUringEngine(sys, fileFd, device, blockSize, direct, entries, maxSqeBytes);
        engine.release(engine.newRing());
        return engine;
    }

    /** Rings set up so far (all idle once no I/O is in flight); for tests of leaks. */
    synchronized int rings() {
        return all.size();
    }

    /** SQEs issued as READ_FIXED/WRITE_FIXED so far; for tests. */
    long fixedTransfers() {
        return fixedTransfers.sum();
    }

    /**
     * Registers {@code region} as fixed buffers with every ring (idle rings now, leased ones before
     * their next batch). The region must stay allocated until {@link #unregisterBuffers} or close: the
     * kernel keeps its pages pinned, and I/O to an address inside it uses those pages.
     *
     * @return null, or why the kernel refused (then no fixed buffers are used and I/O goes on without)
     * @throws IllegalArgumentException if the region is not native or there would be too many pieces
     */
    synchronized String registerBuffer(MemorySegment region) {
        return install(fixed.plus(region, ++generations));
    }

    /** Drops every fixed buffer; the caller has no I/O in flight into them. */
    synchronized void unregisterBuffers() {
        install(FixedBuffers.none(++generations));
    }

    private String install(FixedBuffers next) {
        fixed = next;
        for (IoUring ring : idle) {
            String refused = sync(ring);
            if (refused != null) {
                return refused;
            }
        }
        return null;
    }

    /** Brings {@code ring}'s fixed buffers up to date; on refusal drops them everywhere and says why. */
    private String sync(IoUring ring) {
        try {
            ring.syncBuffers(fixed);
            return null;
        } catch (NativeIO.NativeException e) {
            String why = "io_uring refused fixed buffers of device '" + device + "' (" + e.getMessage()
                    + (e.errno == NativeIO.ENOMEM ? "; raise the locked-memory limit, ulimit -l" : "")
                    + "); I/O continues without them";
            LOG.log(System.Logger.Level.WARNING, why);
            fixed = FixedBuffers.none(++generations);
            for (IoUring r : all) {
                if (r == ring || idle.contains(r)) {
                    try {
                        r.syncBuffers(fixed);
                    } catch (NativeIO.NativeException ignored) {
                        // the ring keeps a registration it will never name: only pinned pages are lost
                    }
                }
            }
            return why;
        }
    }

    /** Reads {@code destination.byteSize()} bytes at {@code offset}. */
    void read(long offset, MemorySegment destination) {
        single(IoRequest.read(offset, destination));
    }

    /** Writes {@code source} at {@code offset}. */
    void write(long offset, MemorySegment source) {
        single(IoRequest.write(offset, source));
    }

    private void single(IoRequest request) {
        Map<Integer, RuntimeException> failures = run(List.of(request));
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
    }

    /**
     * Runs a checked batch with as many requests in flight as a ring holds; returns once every
     * request has finished.
     *
     * @throws BatchIOException naming the failed requests
     */
    void transferAll(List<IoRequest> requests) {
        Map<Integer, RuntimeException> failures = run(requests);
        if (!failures.isEmpty()) {
            throw new BatchIOException(device, requests.size(), failures);
        }
    }

    /** {@code fdatasync} through the ring. */
    void fdatasync() {
        IoUring ring = lease();
        boolean healthy = false;
        try {
            ring.prepareFsync(fileFd, 0);
            int rc = ring.submitAndWait(1);
            if (rc < 0) {
                ring.retractUnsubmitted();
                throw new DeviceIOException("force of device '" + device + "' failed: "
                        + new NativeIO.NativeException("io_uring_enter", -rc).getMessage());
            }
            int[] result = new int[1];
            while (ring.reap((userData, res) -> result[0] = res) == 0) {
                rc = ring.submitAndWait(1);
                if (rc < 0) {
                    throw new DeviceIOException("force of device '" + device + "' failed waiting: "
                            + new NativeIO.NativeException("io_uring_enter", -rc).getMessage());
                }
            }
            healthy = true;
            if (result[0] < 0) {
                throw new DeviceIOException("force of device '" + device + "' failed: "
                        + new NativeIO.NativeException("fdatasync (io_uring)", -result[0]).getMessage());
            }
        } finally {
            if (healthy) {
                release(ring);
            } else {
                discard(ring);
            }
        }
    }

    /** The state of one batch on one leased ring. */
    private final class Batch implements IoUring.CompletionSink {
        final List<IoRequest> requests;
        final IoUring ring;
        final long[] done;
        final MemorySegment[] io;
        final int[] retries;
        final int[] queue;
        int queueHead;
        int queued;
        int inFlight;
        Arena bounceArena;
        final Map<Integer, RuntimeException> failures = new HashMap<>();
        /** The fixed buffers of this batch's ring, fixed for the batch. */
        final FixedBuffers buffers;

        Batch(List<IoRequest> requests, IoUring ring) {
            this.requests = requests;
            this.ring = ring;
            this.buffers = ring.buffers();
            int n = requests.size();
            done = new long[n];
            io = new MemorySegment[n];
            retries = new int[n];
            queue = new int[n];
            for (int i = 0; i < n; i++) {
                queue[i] = i;
            }
            queued = n;
        }

        void enqueue(int index) {
            queue[(queueHead + queued) % queue.length] = index;
            queued++;
        }

        int dequeue() {
            int index = queue[queueHead];
            queueHead = (queueHead + 1) % queue.length;
            queued--;
            return index;
        }

        /** The native, suitably aligned memory the kernel transfers for request {@code i}. */
        MemorySegment ioBuffer(int i) {
            if (io[i] == null) {
                IoRequest r = requests.get(i);
                if (usableAsIs(r.buffer())) {
                    io[i] = r.buffer();
                } else {
                    if (bounceArena == null) {
                        bounceArena = Arena.ofConfined();
                    }
                    io[i] = bounceArena.allocate(r.length(), blockSize);
                    if (r.op() == IoOp.WRITE) {
                        io[i].copyFrom(r.buffer());
                    }
                }
            }
            return io[i];
        }

        void prepare(int i) {
            prepareTransfer(ring, buffers, requests.get(i), ioBuffer(i), done[i], i);
        }

        @Override
        public void complete(long userData, int result) {
            int i = (int) userData;
            inFlight--;
            IoRequest r = requests.get(i);
            if (result > 0) {
                done[i] += result;
                if (done[i] < r.length()) {
                    enqueue(i); // short completion or a chunk of a large request: the rest goes again
                } else if (r.op() == IoOp.READ && io[i] != r.buffer()) {
                    r.buffer().copyFrom(io[i]);
                }
            } else if (retryable(result) && ++retries[i] <= MAX_RETRIES) {
                enqueue(i);
            } else {
                failures.put(i, failure(r, done[i], result));
            }
        }

        /** Runs the batch to its end; returns whether the ring is still usable. */
        boolean run() {
            int entries = ring.entries();
            while (queued > 0 || inFlight > 0) {
                int free = ring.freeSlots();
                while (queued > 0 && inFlight < entries && free > 0) {
                    prepare(dequeue());
                    inFlight++;
                    free--;
                }
                // all submitted: wait for all; more to come: wait for a quarter of the ring to free up
                int want = queued == 0 ? inFlight : Math.max(1, inFlight - entries * 3 / 4);
                int rc = ring.submitAndWait(want);
                if (rc < 0) {
                    for (long userData : ring.retractUnsubmitted()) {
                        inFlight--;
                        failures.put((int) userData, error(requests.get((int) userData), "io_uring_enter", -rc));
                    }
                    while (queued > 0) {
                        int i = dequeue();
                        failures.put(i, error(requests.get(i), "io_uring_enter", -rc));
                    }
                    drain();
                    return false;
                }
                ring.reap(this);
            }
            return true;
        }

        /**
         * Waits for the I/Os the kernel already took after {@code io_uring_enter} itself failed: their
         * buffers must not be handed back while the kernel may still write them. Completions reach the
         * CQ when this thread next returns from any system call, so a short park polls them.
         */
        private void drain() {
            while (inFlight > 0) {
                if (ring.reap(this) == 0) {
                    LockSupport.parkNanos(100_000);
                }
            }
        }

        void finish() {
            if (bounceArena != null) {
                bounceArena.close();
            }
        }
    }

    /**
     * Whether the kernel can transfer {@code buffer} as it is: native memory, aligned to the block size
     * on an O_DIRECT file. Any other buffer goes through an aligned bounce copy.
     */
    boolean usableAsIs(MemorySegment buffer) {
        return buffer.isNative() && (!direct || (buffer.address() & (blockSize - 1)) == 0);
    }

    /**
     * Writes the SQE for the part of {@code r} after its first {@code done} bytes (at most
     * {@code maxSqeBytes} of it) from or into {@code io}, the request's kernel-usable buffer: as
     * READ_FIXED/WRITE_FIXED when {@code buffers} (the ring's registration) holds that memory.
     */
    void prepareTransfer(IoUring ring, FixedBuffers buffers, IoRequest r, MemorySegment io, long done, long userData) {
        int length = (int) Math.min(r.length() - done, maxSqeBytes);
        long address = io.address() + done;
        int fixedIndex = buffers.pieces.length == 0 ? -1 : buffers.indexOf(address, length);
        byte opcode;
        if (fixedIndex >= 0) {
            opcode = r.op() == IoOp.READ ? IoUring.OP_READ_FIXED : IoUring.OP_WRITE_FIXED;
            fixedTransfers.increment();
        } else {
            opcode = r.op() == IoOp.READ ? IoUring.OP_READ : IoUring.OP_WRITE;
        }
        ring.prepareTransfer(opcode, fileFd, r.offset() + done, address, length, Math.max(fixedIndex, 0), userData);
    }

    /** Whether a completion's negative {@code result} is worth resubmitting (up to {@link #MAX_RETRIES} times). */
    static boolean retryable(int result) {
        return result == -IoUringSyscalls.EAGAIN || result == -IoUringSyscalls.EINTR;
    }

    /** The failure of {@code r} whose completion brought {@code result} (0 or minus errno) after {@code done} bytes. */
    RuntimeException failure(IoRequest r, long done, int result) {
        if (result == 0) {
            return error(r, r.op() == IoOp.READ
                    ? "end of file after " + done + " bytes (the file is shorter than the device:"
                    + " truncated behind the store's back?)"
                    : "the kernel wrote 0 bytes after " + done, 0);
        }
        return error(r, null, -result);
    }

    /** The fixed buffers every ring should have now. */
    FixedBuffers fixedBuffers() {
        return fixed;
    }

    /**
     * Opens a queue of {@code depth} with a ring of its own, of {@code min(depth, entries)} entries: its
     * requests never wait for a pooled ring, and the ring stays warm between its owner's calls.
     *
     * @throws IllegalStateException if the device is closed or closing
     * @throws DeviceIOException     if the kernel refuses another ring (locked memory, descriptors)
     */
    IoQueue openQueue(int depth, long capacity, DeviceStats stats) {
        synchronized (this) {
            if (closed || queuesClosed) {
                throw new IllegalStateException("device '" + device + "' is closed");
            }
        }
        IoUring ring;
        try {
            ring = new IoUring(sys, Math.min(depth, entries));
        } catch (NativeIO.NativeException e) {
            throw new DeviceIOException("cannot set up an io_uring for a queue of depth " + depth + " on device '"
                    + device + "': " + e.getMessage() + (e.errno == NativeIO.ENOMEM
                    ? " (raise the locked-memory limit, ulimit -l, or close other queues)" : ""), e);
        }
        try {
            ring.registerFile(fileFd);
        } catch (NativeIO.NativeException e) {
            // works without: SQEs then name the descriptor itself
        }
        IoUringQueue queue = new IoUringQueue(this, ring, device, blockSize, capacity, depth, stats);
        synchronized (this) {
            if (closed || queuesClosed) {
                ring.close();
                throw new IllegalStateException("device '" + device + "' is closed");
            }
            queues.add(queue);
        }
        return queue;
    }

    /** Forgets a queue that closed (its owner closed it, or the device did). */
    synchronized void forget(IoUringQueue queue) {
        queues.remove(queue);
    }

    /**
     * Refuses new queues and finishes the open ones: each waits for its requests in flight, keeps
     * their completions for its owner and releases its ring. Called first when the device closes,
     * before it waits for its other operations: a queue's owner may be the very thread closing it.
     */
    void closeQueues() {
        List<IoUringQueue> open;
        synchronized (this) {
            queuesClosed = true;
            open = List.copyOf(queues);
        }
        for (IoUringQueue queue : open) {
            queue.deviceClosing();
        }
    }

    private Map<Integer, RuntimeException> run(List<IoRequest> requests) {
        IoUring ring = lease();
        Batch batch = new Batch(requests, ring);
        boolean healthy = false;
        try {
            healthy = batch.run();
        } finally {
            batch.finish();
            if (healthy) {
                release(ring);
            } else {
                discard(ring);
            }
        }
        return batch.failures;
    }

    RuntimeException error(IoRequest r, String call, int errno) {
        String what = r.op().tag() + " of " + r.length() + " bytes at offset " + r.offset() + " on device '"
                + device + "' (io_uring): ";
        if (call == null) {
            String message = new NativeIO.NativeException(r.op().tag(), errno).getMessage();
            return errno == NativeIO.ENOSPC ? new DeviceFullException(what + message)
                    : new DeviceIOException(what + message);
        }
        return new DeviceIOException(what + (errno == 0 ? call : new NativeIO.NativeException(call, errno).getMessage()));
    }

    private IoUring lease() {
        boolean interrupted = false;
        try {
            synchronized (this) {
                while (true) {
                    if (closed) {
                        throw new IllegalStateException("device '" + device + "' is closed");
                    }
                    IoUring ring = idle.pollFirst();
                    if (ring != null) {
                        sync(ring);
                        return ring;
                    }
                    if (all.size() < maxRings) {
                        try {
                            IoUring created = newRing();
                            sync(created);
                            return created;
                        } catch (NativeIO.NativeException e) {
                            if (all.isEmpty()) {
                                throw new DeviceIOException("cannot set up an io_uring for device '" + device
                                        + "': " + e.getMessage(), e);
                            }
                            // out of locked memory or descriptors: share the rings there are
                            maxRings = all.size();
                        }
                    }
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        interrupted = true; // an interrupt must not fail the I/O; it is restored below
                    }
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Sets up and registers a ring; the caller holds the monitor or is the constructor. */
    private IoUring newRing() throws NativeIO.NativeException {
        IoUring ring = new IoUring(sys, entries);
        try {
            ring.registerFile(fileFd);
        } catch (NativeIO.NativeException e) {
            // works without: SQEs then name the descriptor itself
        }
        synchronized (this) {
            all.add(ring);
        }
        return ring;
    }

    private synchronized void release(IoUring ring) {
        idle.addFirst(ring); // the most recently used ring is the warmest in the caches
        notify();
    }

    private synchronized void discard(IoUring ring) {
        all.remove(ring);
        ring.close();
        notify();
    }

    /** Finishes the queues and unmaps every ring; called once no other I/O is in flight. Idempotent. */
    @Override
    public void close() {
        closeQueues();
        closePool();
    }

    private synchronized void closePool() {
        closed = true;
        for (IoUring ring : all) {
            ring.close();
        }
        all.clear();
        idle.clear();
        notifyAll();
    }
}
