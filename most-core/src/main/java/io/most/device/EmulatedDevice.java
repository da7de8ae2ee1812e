package io.most.device;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A block device with the performance of another: it stores data on any backing
 * {@link BlockDevice} (a {@link MemoryDevice}, or a file) and makes every operation take as long as
 * the {@link DeviceProfile} says, including queueing when more requests arrive than the device has
 * channels. This is how MOST reproduces Optane/NVMe/SATA hierarchies on a machine with one disk,
 * as the Orthus paper did with FlashSim.
 *
 * <p>Capacity is accounted in virtual time: each channel and the device's bandwidth keep the instant
 * they become free, and a request is scheduled against them when it arrives. Throughput limits
 * therefore hold exactly however late a waiting thread wakes; only the latency a caller observes
 * carries the wake-up error (see {@link Pacer}). The backing device's own latency must be smaller
 * than the model's (at {@link DeviceProfiles#DEFAULT_SCALE} it is).
 *
 * <p>Thread-safe. Statistics record the emulated, caller-observed latency.
 */
public final class EmulatedDevice extends AbstractBlockDevice {
    private final BlockDevice backing;
    private final DeviceProfile profile;
    private final long[] channelFreeAt;
    private long busFreeAt;
    /** Moving share of writes among recent operations, for read/write interference. */
    private double writeShare;

    /** Emulates {@code profile} over {@code backing}, under the profile's name. */
    public EmulatedDevice(BlockDevice backing, DeviceProfile profile) {
        this(profile.name(), backing, profile);
    }

    public EmulatedDevice(String name, BlockDevice backing, DeviceProfile profile) {
        super(name, backing.blockSize(), backing.capacity());
        this.backing = backing;
        this.profile = profile;
        this.channelFreeAt = new long[profile.channels()];
        long now = System.nanoTime();
        Arrays.fill(channelFreeAt, now);
        this.busFreeAt = now;
    }

    /** The service model in use. */
    public DeviceProfile profile() {
        return profile;
    }

    /** The device that holds the data. */
    public BlockDevice backing() {
        return backing;
    }

    @Override
    protected void doRead(long offset, MemorySegment destination) {
        long done = schedule(IoOp.READ, destination.byteSize());
        backing.read(offset, destination);
        Pacer.awaitUntil(done);
    }

    @Override
    protected void doWrite(long offset, MemorySegment source) {
        long done = schedule(IoOp.WRITE, source.byteSize());
        backing.write(offset, source);
        Pacer.awaitUntil(done);
    }

    /**
     * A batch arrives at once: every request is scheduled on the channels at the same instant, so
     * the batch takes as long as the profile's parallelism allows (a queue depth of 32 on 8 channels
     * costs four service times, not 32), and the caller waits for the last one.
     */
    @Override
    protected void doTransferAll(List<IoRequest> requests) {
        long done = 0;
        for (IoRequest r : requests) {
            done = Math.max(done, schedule(r.op(), r.length()));
        }
        try {
            backing.transferAll(requests);
        } finally {
            Pacer.awaitUntil(done);
        }
    }

    /**
     * Forwards to the backing device (a discarded block reads as the backing device's does) and
     * charges nothing: a trim moves no data, so it takes no bandwidth, and an SSD acknowledges a
     * deallocate from its mapping table without occupying a flash channel; what trimming buys (less
     * garbage collection later) is not in the model either, so charging a made-up cost would only add
     * latency the profiles never measured.
     */
    @Override
    protected void doDiscard(long offset, long length) {
        backing.discard(offset, length);
    }

    @Override
    protected void doForce() {
        backing.force();
    }

    @Override
    protected void doClose() {
        backing.close();
    }

    /**
     * The latency a read of {@code bytes} arriving now would see, in nanoseconds, without scheduling
     * it: the model's service time (grown by recent write interference, as a read's is), after the
     * wait for the first free channel, or for the bandwidth behind the requests already scheduled if
     * that is longer. Latency spikes, being random, are left out. The model's answer, not the
     * caller-observed latency of {@link #stats()}: a caller comparing it with another model's (the
     * buffer manager's non-hierarchical caching compares it with its PM model's) compares the two
     * devices, not how late this machine's threads wake.
     */
    public long readLatencyNanos(long bytes) {
        long service = profile.serviceNanos(IoOp.READ, bytes);
        long transfer = bytes * 1_000_000_000L / profile.bandwidth(IoOp.READ);
        synchronized (channelFreeAt) {
            long now = System.nanoTime(); // under the lock, as EmulatedPm.readLatencyNanos reads its clock
            service += (long) (service * profile.writeInterference() * writeShare);
            long start = Math.max(now, channelFreeAt[Channels.earliestFree(channelFreeAt)]);
            return Math.max(start + service, Math.max(busFreeAt, start) + transfer) - now;
        }
    }

    /** Reserves a channel and bandwidth for one operation; returns its completion instant. */
    private long schedule(IoOp op, long bytes) {
        long service = profile.serviceNanos(op, bytes);
        if (profile.spikeProbability() > 0 && ThreadLocalRandom.current().nextDouble() < profile.spikeProbability()) {
            service += profile.spikeNanos();
        }
        long transfer = bytes * 1_000_000_000L / profile.bandwidth(op);
        long now = System.nanoTime();
        synchronized (channelFreeAt) {
            writeShare += ((op == IoOp.WRITE ? 1.0 : 0.0) - writeShare) / 64;
            if (op == IoOp.READ) {
                service += (long) (service * profile.writeInterference() * writeShare);
            }
            int channel = Channels.earliestFree(channelFreeAt);
            long start = Math.max(now, channelFreeAt[channel]);
            channelFreeAt[channel] = start + service;
            busFreeAt = Math.max(busFreeAt, start) + transfer;
            return Math.max(start + service, busFreeAt);
        }
    }

    @Override
    public String toString() {
        return "EmulatedDevice[" + profile.name() + " over " + backing.name() + "]";
    }
}
