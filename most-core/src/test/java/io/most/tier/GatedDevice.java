package io.most.tier;

import io.most.device.AbstractBlockDevice;
import io.most.device.BlockDevice;
import io.most.device.MemoryDevice;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

/**
 * A device whose reads and writes by threads named with the test's prefix wait, while gating
 * is on, until the test releases them: a request held "in the device" as on a saturated one, with
 * its stripe lock held. Other threads (migrations, checkpoints) pass.
 */
final class GatedDevice extends AbstractBlockDevice {
    private final BlockDevice inner;
    private final String gatedPrefix;
    private final Map<Thread, CountDownLatch> held = new ConcurrentHashMap<>();
    volatile boolean gating;

    /** A gated memory device of {@code capacity} bytes. */
    GatedDevice(long capacity, String gatedPrefix) {
        this(new MemoryDevice("gated-memory", TierFixture.BLOCK, capacity), gatedPrefix);
    }

    /** {@code inner} gated. */
    GatedDevice(BlockDevice inner, String gatedPrefix) {
        super("gated", inner.blockSize(), inner.capacity());
        this.inner = inner;
        this.gatedPrefix = gatedPrefix;
    }

    /** Whether {@code t} waits on a volume's stripe lock. */
    static boolean parkedOnStripe(Thread t) {
        return LockSupport.getBlocker(t) instanceof StripeLock;
    }

    /** Whether {@code t}'s request is held in the device. */
    boolean holds(Thread t) {
        return held.containsKey(t);
    }

    @Override
    protected void doRead(long offset, MemorySegment destination) {
        gate();
        inner.read(offset, destination);
    }

    @Override
    protected void doWrite(long offset, MemorySegment source) {
        gate();
        inner.write(offset, source);
    }

    private void gate() {
        if (gating && Thread.currentThread().getName().startsWith(gatedPrefix)) {
            CountDownLatch gate = new CountDownLatch(1);
            held.put(Thread.currentThread(), gate);
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    protected void doForce() {
        inner.force();
    }

    @Override
    protected void doClose() {
        inner.close();
    }

    /** Lets {@code t}'s held request go. */
    void release(Thread t) {
        CountDownLatch gate = held.get(t);
        if (gate != null) {
            gate.countDown();
        }
    }
}
