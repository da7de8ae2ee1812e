package io.most.device;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.concurrent.locks.LockSupport;

/**
 * An {@link IoQueue} on a ring of its own (see {@link IoUringEngine#openQueue}): each request holds a
 * slot (its index is the SQE's user data) from submit until it finishes; {@code submit} writes its SQE
 * and the next {@link #awaitCompletion} or {@link #flush} submits all written SQEs and waits in one
 * {@code io_uring_enter}. Completions already in the CQ are reaped without entering the kernel, unless
 * SQEs are waiting to go in: those are submitted first, so a request submitted before a wait is always
 * in the device's queue while the caller waits.
 *
 * <p>At most {@code min(depth, ring entries)} SQEs are in the ring (so its CQ, twice as large, cannot
 * overflow); a request beyond that, and the rest of a request that completed short or with EAGAIN,
 * waits in a backlog and goes in as completions free ring entries. A request whose buffer the kernel
 * cannot use (heap memory, unaligned on O_DIRECT) goes through a bounce buffer kept per slot.
 *
 * <p>Every method holds the queue's monitor: the ring is single-producer single-consumer, and the
 * device's close ({@link #deviceClosing}) must not unmap it under a caller.
 */
final class IoUringQueue implements IoQueue, IoUring.CompletionSink {
    private final IoUringEngine engine;
    private final String device;
    private final int blockSize;
    private final long capacity;
    private final int depth;
    private final DeviceStats stats;
    /** The queue's ring; null once released (the queue or the device closed). */
    private IoUring ring;
    /** Most SQEs in the ring at once. */
    private final int ringLimit;

    private final IoRequest[] requests;
    private final long[] tags;
    private final long[] startNanos;
    private final long[] done;
    private final int[] retries;
    /** The memory the kernel transfers for each slot: the request's buffer or the slot's bounce buffer. */
    private final MemorySegment[] io;
    private final MemorySegment[] bounce;
    private final int[] freeSlots;
    private int freeCount;
    /** Slots waiting for a ring entry, FIFO. */
    private final int[] backlog;
    private int backlogHead;
    private int backlogSize;
    private final ArrayDeque<IoCompletion> finished = new ArrayDeque<>();
    /** SQEs in the ring whose CQE has not been reaped. */
    private int inRing;
    private int outstanding;
    /** A generation of fixed buffers the kernel refused for this ring: not asked again. */
    private int refusedGeneration = -1;
    private boolean closed;
    private boolean deviceClosed;

    IoUringQueue(IoUringEngine engine, IoUring ring, String device, int blockSize, long capacity, int depth,
                 DeviceStats stats) {
        this.engine = engine;
        this.ring = ring;
        this.device = device;
        this.blockSize = blockSize;
        this.capacity = capacity;
        this.depth = depth;
        this.stats = stats;
        this.ringLimit = Math.min(depth, ring.entries());
        requests = new IoRequest[depth];
        tags = new long[depth];
        startNanos = new long[depth];
        done = new long[depth];
        retries = new int[depth];
        io = new MemorySegment[depth];
        bounce = new MemorySegment[depth];
        freeSlots = new int[depth];
        for (int i = 0; i < depth; i++) {
            freeSlots[i] = depth - 1 - i;
        }
        freeCount = depth;
        backlog = new int[depth];
    }

    @Override
    public int depth() {
        return depth;
    }

    @Override
    public synchronized int outstanding() {
        return outstanding;
    }

    @Override
    public synchronized void submit(IoRequest request, long tag) {
        Batches.checkSubmission(device, blockSize, capacity, request, closed, deviceClosed, depth, outstanding);
        int slot = freeSlots[--freeCount];
        requests[slot] = request;
        tags[slot] = tag;
        done[slot] = 0;
        retries[slot] = 0;
        io[slot] = kernelBuffer(slot, request);
        stats.begin();
        startNanos[slot] = System.nanoTime();
        outstanding++;
        if (backlogSize == 0 && inRing < ringLimit && ring.freeSlots() > 0) {
            prepare(slot);
        } else {
            toBacklog(slot);
        }
    }

    /** The request's own buffer when the kernel can use it, else the slot's bounce buffer (a write's data copied in). */
    private MemorySegment kernelBuffer(int slot, IoRequest request) {
        if (engine.usableAsIs(request.buffer())) {
            return request.buffer();
        }
        MemorySegment b = bounce[slot];
        if (b == null || b.byteSize() < request.length()) {
            // an automatic arena: freed by the GC with the queue, whichever thread closes it
            b = Arena.ofAuto().allocate(request.length(), blockSize);
            bounce[slot] = b;
        }
        MemorySegment used = b.asSlice(0, request.length());
        if (request.op() == IoOp.WRITE) {
            used.copyFrom(request.buffer());
        }
        return used;
    }

    @Override
    public synchronized void flush() {
        ensureOpen();
        if (ring != null) {
            fillFromBacklog();
            enter(0);
        }
    }

    @Override
    public synchronized IoCompletion awaitCompletion() {
        ensureOpen();
        Batches.checkSomethingOutstanding(device, outstanding);
        while (finished.isEmpty()) {
            // outstanding but not finished means in the ring or the backlog, so the ring is still there
            fillFromBacklog();
            enter(ring.ready() > 0 ? 0 : 1);
            ring.reap(this);
        }
        if (ring != null && (backlogSize > 0 || ring.unsubmitted() > 0)) {
            // resubmitted rests and backlog refills go in now, not at the next call
            fillFromBacklog();
            enter(0);
        }
        outstanding--;
        return finished.poll();
    }

    /**
     * Submits the written SQEs and waits for {@code minComplete} completions, in one
     * {@code io_uring_enter} (none when there is nothing to submit or wait for). When the kernel refuses
     * the call, the SQEs it did not take fail with its error; the requests it had already taken are
     * still in flight, and their completions are polled (a system call returns with them posted).
     */
    private void enter(int minComplete) {
        if (ring.unsubmitted() == 0 && minComplete == 0) {
            return;
        }
        int rc = ring.submitAndWait(minComplete);
        if (rc >= 0) {
            return;
        }
        long[] retracted = ring.retractUnsubmitted();
        for (long userData : retracted) {
            int slot = (int) userData;
            inRing--;
            finish(slot, engine.error(requests[slot], "io_uring_enter", -rc));
        }
        if (retracted.length == 0) {
            LockSupport.parkNanos(100_000);
        }
    }

    private void prepare(int slot) {
        engine.prepareTransfer(ring, buffers(), requests[slot], io[slot], done[slot], slot);
        inRing++;
    }

    /**
     * The fixed buffers this SQE may name: the ring's registration once it is current. A ring changes
     * its registration only with nothing in flight (the kernel may still be using the old buffers);
     * until then SQEs go as plain reads and writes, never naming a buffer that was unregistered.
     */
    private FixedBuffers buffers() {
        FixedBuffers wanted = engine.fixedBuffers();
        if (wanted.generation == ring.buffers().generation) {
            return wanted;
        }
        if (inRing == 0 && ring.unsubmitted() == 0 && wanted.generation != refusedGeneration) {
            try {
                ring.syncBuffers(wanted);
                return wanted;
            } catch (NativeIO.NativeException e) {
                refusedGeneration = wanted.generation; // the engine's own rings log the refusal
            }
        }
        return FixedBuffers.NONE;
    }

    private void toBacklog(int slot) {
        backlog[(backlogHead + backlogSize) % backlog.length] = slot;
        backlogSize++;
    }

    private void fillFromBacklog() {
        while (backlogSize > 0 && inRing < ringLimit && ring.freeSlots() > 0) {
            int slot = backlog[backlogHead];
            backlogHead = (backlogHead + 1) % backlog.length;
            backlogSize--;
            prepare(slot);
        }
    }

    @Override
    public void complete(long userData, int result) {
        int slot = (int) userData;
        inRing--;
        IoRequest r = requests[slot];
        if (result > 0) {
            done[slot] += result;
            if (done[slot] < r.length()) {
                toBacklog(slot); // a short completion or one chunk of a large request: the rest goes again
                return;
            }
            if (r.op() == IoOp.READ && io[slot] != r.buffer()) {
                r.buffer().copyFrom(io[slot]);
            }
            finish(slot, null);
        } else if (IoUringEngine.retryable(result) && ++retries[slot] <= IoUringEngine.MAX_RETRIES) {
            toBacklog(slot);
        } else {
            finish(slot, engine.failure(r, done[slot], result));
        }
    }

    private void finish(int slot, RuntimeException failure) {
        IoRequest r = requests[slot];
        stats.end(r.op(), r.length(), startNanos[slot], failure != null);
        finished.add(new IoCompletion(r, tags[slot], failure));
        requests[slot] = null;
        io[slot] = null;
        freeSlots[freeCount++] = slot;
    }

    /** Runs every request in the ring or the backlog to its end. */
    private void drain() {
        while (inRing > 0 || backlogSize > 0) {
            fillFromBacklog();
            enter(ring.ready() > 0 || inRing == 0 ? 0 : 1);
            ring.reap(this);
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (ring != null) {
                drain();
            }
        } finally {
            finished.clear();
            outstanding = 0;
            release();
        }
    }

    /**
     * The device is closing: runs every request to its end, keeping the completions for
     * {@link #awaitCompletion}, and releases the ring; later submissions are refused.
     */
    synchronized void deviceClosing() {
        if (closed || deviceClosed) {
            return;
        }
        deviceClosed = true;
        try {
            drain();
        } finally {
            release();
        }
    }

    private void release() {
        if (ring != null) {
            ring.close();
            ring = null;
            engine.forget(this);
        }
    }

    private void ensureOpen() {
        Batches.checkQueueOpen(device, closed, false);
    }
}
