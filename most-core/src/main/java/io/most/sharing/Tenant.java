package io.most.sharing;

import io.most.device.BlockDevice;
import io.most.device.LatencyHistogram;
import io.most.device.PmAccount;
import java.util.concurrent.atomic.LongAdder;

/**
 * One tenant of a {@link SharedDevices} set: a cache, a page store or an application that shares the
 * set's PM and block device with the others. A component opened "as a tenant" does all its PM accesses
 * through {@link #pm()} and its block I/O through {@link #device()}, so they are throttled and counted
 * to it, and reports each request it serves with {@link #recordRequest}, the application-level
 * performance the QoS, fair-slowdown and proportional policies steer by.
 *
 * <p>Thread-safe; counters are striped per thread and combined when read.
 */
public final class Tenant implements Regulated {
    private final String name;
    private final Throttle pmThrottle;
    private final Throttle deviceThrottle;
    private final PmAccount pm;
    private final TenantDevice device;
    private final SharedDevices devices;
    private final LongAdder requests = new LongAdder();
    private final LatencyHistogram latency = new LatencyHistogram();
    private final LatencyHistogram window = new LatencyHistogram();
    private volatile double slowdown = 1;

    Tenant(String name, SharedDevices devices) {
        this.name = name;
        this.devices = devices;
        this.pmThrottle = new Throttle(name + "/pm");
        this.deviceThrottle = new Throttle(name + "/device");
        this.pm = new PmAccount(name, devices.pm(), pmThrottle);
        this.device = devices.hasDevice()
                ? new TenantDevice(devices.device(), devices.deviceProfile(), deviceThrottle) : null;
    }

    /** The tenant's name, unique in its set. */
    @Override
    public String name() {
        return name;
    }

    /** The tenant's account on the shared PM: every access through it is throttled and charged to it. */
    public PmAccount pm() {
        return pm;
    }

    /**
     * The tenant's view of the shared block device: reads and writes are throttled and charged to it;
     * closing the view leaves the device open.
     *
     * @throws IllegalStateException if the set has no block device
     */
    public BlockDevice device() {
        if (device == null) {
            throw new IllegalStateException("tenant '" + name + "': this device set has PM only; create it with"
                    + " a block device and its profile to share one");
        }
        return device;
    }

    /**
     * The tenant's space {@code space} of {@code bytes} on the shared block device, as a device of its
     * own to hand to a page store or cache: its offsets start at 0, every access is throttled and
     * charged to this tenant, and an access beyond it is a {@link TenantSpaceException}. The first call
     * for a name creates the space (recorded on the device); later calls, in this process or the next,
     * reopen the same bytes. Closing the space leaves the shared device open.
     *
     * @throws IllegalStateException                  if the set has no block device, or the space is open
     * @throws IllegalArgumentException               if the size is not a positive multiple of the block size
     * @throws io.most.errors.ConfigurationException if the space exists with another size or does not fit
     */
    public BlockDevice space(String space, long bytes) {
        if (device == null) {
            throw new IllegalStateException("tenant '" + name + "': this device set has PM only; create it with"
                    + " a block device and its profile to give tenants spaces on one");
        }
        return devices.openSpace(this, device, space, bytes);
    }

    /** Whether {@code device} is one of this tenant's spaces (so its accesses are charged to it). */
    public boolean owns(BlockDevice device) {
        return device instanceof TenantSpace s && s.belongsTo(devices, name);
    }

    /** The set this tenant belongs to. */
    public SharedDevices devices() {
        return devices;
    }

    @Override
    public Throttle throttle(Resource resource) {
        return resource == Resource.PM ? pmThrottle : deviceThrottle;
    }

    /** Cost units this tenant used on {@code resource} so far, in picoseconds of the whole device. */
    @Override
    public long usedPicos(Resource resource) {
        if (resource == Resource.PM) {
            return pm.costPicos();
        }
        return device == null ? 0 : device.costPicos();
    }

    /** Records one request the tenant served in {@code latencyNanos}. */
    public void recordRequest(long latencyNanos) {
        requests.increment();
        latency.record(latencyNanos);
        window.record(latencyNanos);
    }

    /** Requests recorded so far. */
    @Override
    public long requests() {
        return requests.sum();
    }

    /** Latency of every request recorded so far. */
    public LatencyHistogram latency() {
        return latency;
    }

    /** The controller's latest slowdown estimate (standalone over shared performance; 1 = unharmed). */
    public double slowdown() {
        return slowdown;
    }

    @Override
    public long windowP99Nanos() {
        return window.percentileNanos(0.99);
    }

    @Override
    public void resetWindow() {
        window.reset();
    }

    @Override
    public void reportSlowdown(double value) {
        slowdown = value;
    }

    @Override
    public String toString() {
        return "Tenant[" + name + "]";
    }
}
