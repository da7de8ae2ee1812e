package io.most.device;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Wraps a device and injects faults on demand, for reliability tests of the layers above:
 * <ul>
 *   <li>{@link #failNext(IoOp, int)} – the next operations of a kind throw {@link DeviceIOException};</li>
 *   <li>{@link #failRange(IoOp, long, long)} – every operation of a kind touching a byte range throws,
 *       like a bad region of media;</li>
 *   <li>{@link #tearNextWrite(int, boolean)} – the next write persists only its first bytes (a torn
 *       write, as at power loss) and then reports failure, or success if {@code silent};</li>
 *   <li>{@link #delayNext(int, long)} – latency spikes;</li>
 *   <li>{@link #fullAfter(long)} – writes fail with {@link DeviceFullException} once a byte budget
 *       is spent.</li>
 * </ul>
 * Faults are armed and cleared from any thread; each injected fault is counted in
 * {@link #injectedFaults()}. With nothing armed it is a transparent pass-through.
 */
public final class FaultyDevice extends AbstractBlockDevice {
    private final BlockDevice inner;
    private final AtomicInteger failReads = new AtomicInteger();
    private final AtomicInteger failWrites = new AtomicInteger();
    private final AtomicInteger failForces = new AtomicInteger();
    private final AtomicInteger failDiscards = new AtomicInteger();
    private final AtomicReference<Range> failReadRange = new AtomicReference<>();
    private final AtomicReference<Range> failWriteRange = new AtomicReference<>();
    private final AtomicReference<Tear> tear = new AtomicReference<>();
    private final AtomicInteger delayCount = new AtomicInteger();
    private volatile long delayNanos;
    private final AtomicLong writeBudget = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong injected = new AtomicLong();

    private record Range(long from, long to) {
        boolean overlaps(long offset, long length) {
            return offset < to && offset + length > from;
        }
    }

    private record Tear(int persistedBytes, boolean silent) {
    }

    /** Wraps {@code inner}, keeping its name with a "faulty-" prefix. */
    public FaultyDevice(BlockDevice inner) {
        super("faulty-" + inner.name(), inner.blockSize(), inner.capacity());
        this.inner = inner;
    }

    /** The wrapped device. */
    public BlockDevice inner() {
        return inner;
    }

    /** The next {@code count} operations of kind {@code op} throw {@link DeviceIOException}. */
    public void failNext(IoOp op, int count) {
        counter(op).set(count);
    }

    /**
     * Every read or write (per {@code op}) that touches {@code [from, to)} throws until
     * {@link #clear()}. {@code op} must be READ or WRITE.
     */
    public void failRange(IoOp op, long from, long to) {
        if ((op != IoOp.READ && op != IoOp.WRITE) || from >= to) {
            throw new IllegalArgumentException("failRange needs READ or WRITE and from < to, got " + op
                    + " [" + from + ", " + to + ")");
        }
        (op == IoOp.READ ? failReadRange : failWriteRange).set(new Range(from, to));
    }

    /**
     * The next write persists only its first {@code persistedBytes} bytes (any number, not only whole
     * blocks) and then throws, or returns normally if {@code silent} (a device that acknowledged a
     * write it did not complete, as seen after a power loss).
     */
    public void tearNextWrite(int persistedBytes, boolean silent) {
        if (persistedBytes < 0) {
            throw new IllegalArgumentException("persistedBytes must be >= 0, got " + persistedBytes);
        }
        tear.set(new Tear(persistedBytes, silent));
    }

    /** The next {@code count} operations of any kind take {@code nanos} longer. */
    public void delayNext(int count, long nanos) {
        delayNanos = nanos;
        delayCount.set(count);
    }

    /** Writes succeed for {@code bytes} more bytes, then fail with {@link DeviceFullException}. */
    public void fullAfter(long bytes) {
        writeBudget.set(bytes);
    }

    /** Disarms every fault. */
    public void clear() {
        failReads.set(0);
        failWrites.set(0);
        failForces.set(0);
        failDiscards.set(0);
        failReadRange.set(null);
        failWriteRange.set(null);
        tear.set(null);
        delayCount.set(0);
        writeBudget.set(Long.MAX_VALUE);
    }

    /** Number of faults injected so far. */
    public long injectedFaults() {
        return injected.get();
    }

    @Override
    protected void doRead(long offset, MemorySegment destination) {
        maybeDelay();
        maybeFail(IoOp.READ, offset, destination.byteSize(), failReadRange.get());
        inner.read(offset, destination);
    }

    @Override
    protected void doWrite(long offset, MemorySegment source) {
        long length = source.byteSize();
        maybeDelay();
        maybeFail(IoOp.WRITE, offset, length, failWriteRange.get());
        spendWriteBudget(offset, length);
        Tear t = tear.getAndSet(null);
        if (t == null) {
            inner.write(offset, source);
            return;
        }
        injected.incrementAndGet();
        int kept = (int) Math.min(t.persistedBytes(), length);
        writeTorn(offset, source, kept);
        if (!t.silent()) {
            throw new DeviceIOException("injected torn write: " + describe(IoOp.WRITE, offset, length)
                    + " persisted only " + kept + " bytes");
        }
    }

    private void spendWriteBudget(long offset, long length) {
        if (writeBudget.addAndGet(-length) < 0) {
            writeBudget.addAndGet(length);
            injected.incrementAndGet();
            throw new DeviceFullException("injected: device '" + name() + "' is full ("
                    + describe(IoOp.WRITE, offset, length) + ")");
        }
    }

    /** Persists the first {@code keep} bytes of {@code source}; the rest of the range keeps its old data. */
    private void writeTorn(long offset, MemorySegment source, int keep) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment merged = inner.allocate(arena, source.byteSize());
            inner.read(offset, merged);
            MemorySegment.copy(source, 0, merged, 0, keep);
            inner.write(offset, merged);
        }
    }

    /**
     * Applies the armed faults to each request as {@link #doRead}/{@link #doWrite} would, then
     * forwards the requests that were not failed or torn to the inner device as one batch, so the
     * inner device's queue still sees them together.
     */
    @Override
    protected void doTransferAll(List<IoRequest> requests) {
        Map<Integer, RuntimeException> failures = new HashMap<>();
        List<IoRequest> forwarded = new ArrayList<>();
        List<Integer> forwardedIndex = new ArrayList<>();
        for (int i = 0; i < requests.size(); i++) {
            IoRequest r = requests.get(i);
            try {
                if (r.op() == IoOp.READ) {
                    maybeDelay();
                    maybeFail(IoOp.READ, r.offset(), r.length(), failReadRange.get());
                } else if (tear.get() != null) {
                    doWrite(r.offset(), r.buffer()); // the torn write runs alone, in order
                    continue;
                } else {
                    maybeDelay();
                    maybeFail(IoOp.WRITE, r.offset(), r.length(), failWriteRange.get());
                    spendWriteBudget(r.offset(), r.length());
                }
                forwarded.add(r);
                forwardedIndex.add(i);
            } catch (RuntimeException e) {
                failures.put(i, e);
            }
        }
        try {
            if (!forwarded.isEmpty()) {
                inner.transferAll(forwarded);
            }
        } catch (BatchIOException e) {
            e.failures().forEach((k, v) -> failures.put(forwardedIndex.get(k), v));
        }
        if (!failures.isEmpty()) {
            throw new BatchIOException(name(), requests.size(), failures);
        }
    }

    /** Forwards the discard unless a {@link IoOp#DISCARD} failure is armed ({@link #failNext}). */
    @Override
    protected void doDiscard(long offset, long length) {
        maybeDelay();
        maybeFail(IoOp.DISCARD, offset, length, null);
        inner.discard(offset, length);
    }

    @Override
    protected void doForce() {
        maybeDelay();
        if (takeOne(failForces)) {
            throw new DeviceIOException("injected: force of device '" + name() + "' failed");
        }
        inner.force();
    }

    @Override
    protected void doClose() {
        inner.close();
    }

    private void maybeFail(IoOp op, long offset, long length, Range range) {
        boolean inBadRange = range != null && range.overlaps(offset, length);
        if (inBadRange) {
            injected.incrementAndGet();
        }
        if (inBadRange || takeOne(counter(op))) {
            throw new DeviceIOException("injected I/O error: " + describe(op, offset, length));
        }
    }

    private boolean takeOne(AtomicInteger counter) {
        int left;
        do {
            left = counter.get();
            if (left <= 0) {
                return false;
            }
        } while (!counter.compareAndSet(left, left - 1));
        injected.incrementAndGet();
        return true;
    }

    private void maybeDelay() {
        if (takeOne(delayCount)) {
            LockSupport.parkNanos(delayNanos);
        }
    }

    private AtomicInteger counter(IoOp op) {
        return switch (op) {
            case READ -> failReads;
            case WRITE -> failWrites;
            case FORCE -> failForces;
            case DISCARD -> failDiscards;
        };
    }
}
