package io.most.device;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A memory device that knows what a power failure would keep: writes land in what reads see at
 * once, but reach the durable image only when a later {@link #force()} returns. {@link Crash#crash}
 * freezes a group of devices at one instant and keeps each unforced write whole, not at all, or torn
 * at a block boundary (in any order), like a drive losing its volatile cache. Devices reopened on
 * the same {@link Image} start from what survived. {@link #close()} leaves the image alone.
 */
public final class CrashableDevice extends AbstractBlockDevice {
    private final Image image;
    private final Crash crash;
    private final MemorySegment current;
    private final List<Pending> pending = new ArrayList<>();

    /** The durable bytes of a device, which outlive its device objects. */
    public static final class Image {
        public final MemorySegment durable;

        public Image(long capacity) {
            durable = Arena.ofAuto().allocate(capacity, 4096);
        }
    }

    /** Devices that crash together. */
    public static final class Crash {
        private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
        private final List<CrashableDevice> devices = new ArrayList<>();
        private volatile boolean crashed;
        private final AtomicLong writesBeforeCrash = new AtomicLong(-1);
        private SplittableRandom crashRandom;

        /**
         * Crashes the group in the middle of its {@code n}-th next write (counted over all its devices):
         * that write reaches the volatile cache, the group crashes, and the write fails.
         */
        public void crashAtWrite(long n, SplittableRandom random) {
            crashRandom = random;
            writesBeforeCrash.set(n);
        }

        /** Whether the group has crashed. */
        public boolean crashed() {
            return crashed;
        }

        /** Every device of the group loses its unforced writes, each kept, dropped or torn at random. */
        public void crash(SplittableRandom random) {
            lock.writeLock().lock();
            try {
                crashed = true;
                for (CrashableDevice d : devices) {
                    d.loseVolatileCache(random);
                }
            } finally {
                lock.writeLock().unlock();
            }
        }
    }

    private record Pending(long offset, byte[] data) {
    }

    public CrashableDevice(String name, int blockSize, Image image, Crash crash) {
        super(name, blockSize, image.durable.byteSize());
        this.image = image;
        this.crash = crash;
        this.current = Arena.ofAuto().allocate(image.durable.byteSize(), 4096);
        MemorySegment.copy(image.durable, 0, current, 0, current.byteSize());
        synchronized (crash) {
            crash.devices.add(this);
        }
    }

    public Image image() {
        return image;
    }

    @Override
    protected void doRead(long offset, MemorySegment destination) {
        enter();
        try {
            synchronized (this) {
                MemorySegment.copy(current, offset, destination, 0, destination.byteSize());
            }
        } finally {
            crash.lock.readLock().unlock();
        }
    }

    @Override
    protected void doWrite(long offset, MemorySegment source) {
        enter();
        try {
            byte[] copy = source.toArray(ValueLayout.JAVA_BYTE);
            synchronized (this) {
                MemorySegment.copy(source, 0, current, offset, source.byteSize());
                pending.add(new Pending(offset, copy));
            }
        } finally {
            crash.lock.readLock().unlock();
        }
        if (crash.writesBeforeCrash.get() > 0 && crash.writesBeforeCrash.decrementAndGet() == 0) {
            crash.crash(crash.crashRandom);
            throw new DeviceIOException("device '" + name() + "' crashed during a write");
        }
    }

    @Override
    protected void doForce() {
        enter();
        try {
            synchronized (this) {
                for (Pending p : pending) {
                    MemorySegment.copy(MemorySegment.ofArray(p.data()), 0, image.durable, p.offset(), p.data().length);
                }
                pending.clear();
            }
        } finally {
            crash.lock.readLock().unlock();
        }
    }

    @Override
    protected void doClose() {
    }

    private void enter() {
        crash.lock.readLock().lock();
        if (crash.crashed) {
            crash.lock.readLock().unlock();
            throw new DeviceIOException("device '" + name() + "' has crashed");
        }
    }

    private synchronized void loseVolatileCache(SplittableRandom random) {
        List<Pending> order = new ArrayList<>(pending);
        for (int i = order.size() - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            Pending t = order.get(i);
            order.set(i, order.get(j));
            order.set(j, t);
        }
        for (Pending p : order) {
            int blocks = p.data().length / blockSize();
            int kept = switch (random.nextInt(3)) {
                case 0 -> 0;
                case 1 -> blocks;
                default -> random.nextInt(blocks + 1);
            };
            MemorySegment.copy(MemorySegment.ofArray(p.data()), 0, image.durable, p.offset(), (long) kept * blockSize());
        }
        pending.clear();
    }
}
