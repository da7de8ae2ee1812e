package io.most.device;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * One emulated persistent-memory device (or CXL memory) that every user of it shares, as
 * {@link EmulatedDevice} is for an SSD: each load and store pays the latency its kind and size cost on
 * the {@link PmProfile}'s device, and queues behind the accesses of every other thread and every other
 * tenant when the device's parallelism or media bandwidth is taken.
 *
 * <p>Capacity is kept in virtual time: every channel and the media keep the instant they become
 * free, and an access is scheduled against them when it arrives, so a bandwidth limit holds exactly
 * however late a waiting thread wakes (DESIGN.md, "Sleeping is coarse in this VM"). The model:
 * <ul>
 *   <li>an access costs whole granules (256-byte XPLines on Optane): 64 B costs as 256 B;</li>
 *   <li>it holds the first free of {@link PmProfile#channels()} slots for its latency, so latency grows
 *       once more accesses are in flight than the device serves in parallel;</li>
 *   <li>it holds the media for its granules over the read or write bandwidth; reads and writes share
 *       the media, so a write (a third to a fifth of the read bandwidth on Optane) delays reads behind
 *       it three to five times longer than a read of the same size would;</li>
 *   <li>a read's latency further grows by {@link PmProfile#writeInterference()} times the share of the
 *       last {@link #INTERFERENCE_WINDOW_LATENCIES} one-granule read latencies that the media spent
 *       writing (thesis Fig. 5.1a: writes interfere with reads far beyond their bandwidth).</li>
 * </ul>
 * Alongside time, every access is charged in Nyx cost units ({@link PmProfile#costPicos}), the share
 * of the device it uses, which {@link PmAccount} counts per tenant.
 *
 * <p>{@link #read(long)} and {@link #write(long)} are the per-access hot path: no allocation, one
 * short critical section, then a wait until the access completes (spinning for waits under 20 us, as
 * a CPU stalled on PM spins). Thread-safe.
 */
public final class EmulatedPm {
    /** Length of the window over which recent write traffic slows reads, in one-granule read latencies. */
    static final int INTERFERENCE_WINDOW_LATENCIES = 64;
    private static final Map<PmProfile, EmulatedPm> SHARED = new ConcurrentHashMap<>();

    private final PmProfile profile;
    private final LongSupplier clock;
    private final boolean realTime;
    private final boolean free;
    /** Clock reading that virtual time (picoseconds) counts from, so picosecond instants fit a long. */
    private final long epochNanos;
    /** Service nanoseconds, media picoseconds and cost units of accesses up to 4 KiB, by [op][granules]. */
    private final long[][] serviceNanos;
    private final long[][] mediaPicos;
    private final long[][] costPicos;
    private final long windowPicos;

    private final Object lock = new Object();
    private final long[] channelFreeAtPicos;
    private long mediaFreeAtPicos;
    private long window;
    private long windowWritePicos;
    private long previousWindowWritePicos;
    private long consumedPicos;
    private long reads;
    private long writes;

    /** A device of {@code profile} on the system clock, whose accesses wait in real time. */
    public EmulatedPm(PmProfile profile) {
        this(profile, System::nanoTime, true);
    }

    /**
     * A device on {@code clock} for deterministic tests: accesses are scheduled in the clock's time and
     * never wait, so {@link #reserve} results depend on the clock alone.
     */
    EmulatedPm(PmProfile profile, LongSupplier clock) {
        this(profile, clock, false);
    }

    private EmulatedPm(PmProfile profile, LongSupplier clock, boolean realTime) {
        this.profile = profile;
        this.clock = clock;
        this.realTime = realTime;
        this.free = profile.isFree();
        this.epochNanos = clock.getAsLong();
        int maxGranules = PmProfile.FOUR_KIB / profile.granularity();
        this.serviceNanos = new long[2][maxGranules + 1];
        this.mediaPicos = new long[2][maxGranules + 1];
        this.costPicos = new long[2][maxGranules + 1];
        for (IoOp op : new IoOp[] {IoOp.READ, IoOp.WRITE}) {
            for (int g = 1; g <= maxGranules; g++) {
                serviceNanos[index(op)][g] = profile.serviceNanos(op, g);
                mediaPicos[index(op)][g] = profile.mediaPicos(op, g);
                costPicos[index(op)][g] = profile.costPicos(op, (long) g * profile.granularity());
            }
        }
        this.windowPicos = Math.max(1, INTERFERENCE_WINDOW_LATENCIES * profile.serviceNanos(IoOp.READ, 1) * 1000);
        this.channelFreeAtPicos = new long[free ? 0 : profile.channels()];
    }

    /**
     * The one device of {@code profile} in this JVM: every buffer manager, cache and tenant that
     * names the same profile shares it, as processes on one machine share its PM DIMMs.
     */
    public static EmulatedPm shared(PmProfile profile) {
        return SHARED.computeIfAbsent(profile, EmulatedPm::new);
    }

    /** The service model in use. */
    public PmProfile profile() {
        return profile;
    }

    /** Loads {@code bytes} from the device: returns once the load would have completed. */
    public void read(long bytes) {
        access(IoOp.READ, 0, bytes);
    }

    /** Stores and persists {@code bytes}: returns once the store would have completed. */
    public void write(long bytes) {
        access(IoOp.WRITE, 0, bytes);
    }

    /**
     * Performs {@code op} on {@code [offset, offset + bytes)} in the model: schedules it and waits
     * until it completes. An unaligned access pays for every granule it touches.
     */
    public void access(IoOp op, long offset, long bytes) {
        if (free) {
            checkAccess(op, offset, bytes);
            return;
        }
        awaitCompletion(reserve(op, offset, bytes));
    }

    /**
     * Schedules {@code op} of {@code bytes} at {@code offset} against the device's channels and media
     * without waiting, and returns the clock instant (nanoseconds) at which it completes. Callers that
     * overlap their own copy with the modelled time reserve first, copy, then
     * {@link #awaitCompletion(long) await}.
     *
     * @throws IllegalArgumentException if {@code op} is not a read or write, or the range is negative
     */
    public long reserve(IoOp op, long offset, long bytes) {
        checkAccess(op, offset, bytes);
        long granules = profile.granules(offset, bytes);
        long now = clock.getAsLong();
        if (free || granules == 0) {
            return now;
        }
        int i = index(op);
        boolean small = granules < serviceNanos[i].length;
        long service = (small ? serviceNanos[i][(int) granules] : profile.serviceNanos(op, granules)) * 1000;
        long media = small ? mediaPicos[i][(int) granules] : profile.mediaPicos(op, granules);
        long cost = small ? costPicos[i][(int) granules] : profile.costPicos(op, granules * profile.granularity());
        long nowPicos = (now - epochNanos) * 1000;
        long donePicos;
        synchronized (lock) {
            if (op == IoOp.READ && profile.writeInterference() > 0) {
                service += (long) (service * profile.writeInterference() * writeShare(nowPicos));
            }
            int channel = Channels.earliestFree(channelFreeAtPicos);
            long start = Math.max(nowPicos, channelFreeAtPicos[channel]);
            channelFreeAtPicos[channel] = start + service;
            mediaFreeAtPicos = Math.max(mediaFreeAtPicos, start) + media;
            if (op == IoOp.WRITE) {
                rollWindow(nowPicos);
                windowWritePicos += media;
                writes++;
            } else {
                reads++;
            }
            consumedPicos += cost;
            donePicos = Math.max(start + service, mediaFreeAtPicos);
        }
        return epochNanos + (donePicos + 999) / 1000;
    }

    /** Waits until {@code deadline}, an instant returned by {@link #reserve}; at once on a test clock. */
    public void awaitCompletion(long deadline) {
        if (realTime) {
            Pacer.awaitUntil(deadline);
        }
    }

    /**
     * Nyx's cost of one access ({@code 1 / MaxIOPS} of its kind and size, in picoseconds of the whole
     * device), the unit {@link PmAccount} counts a tenant's use in.
     */
    public long costPicos(IoOp op, long offset, long bytes) {
        checkAccess(op, offset, bytes);
        long granules = profile.granules(offset, bytes);
        if (granules == 0) {
            return 0;
        }
        return granules < costPicos[index(op)].length ? costPicos[index(op)][(int) granules]
                : profile.costPicos(op, granules * profile.granularity());
    }

    /**
     * How long an access arriving now would wait for the media behind the accesses already reserved,
     * in nanoseconds (0 when the media is idle): the device's backlog, by which a caller can tell PM
     * is saturated (Orthus-style load admission sends reads elsewhere then).
     */
    public long backlogNanos() {
        if (free) {
            return 0;
        }
        long nowPicos = (clock.getAsLong() - epochNanos) * 1000;
        synchronized (lock) {
            return Math.max(0, (mediaFreeAtPicos - nowPicos + 999) / 1000);
        }
    }

    /**
     * The latency a read of {@code bytes} arriving now would see, in nanoseconds, without scheduling
     * it: its service time (grown by recent write interference, as {@link #reserve} grows it), after
     * the wait for the first free channel, or the wait for the media behind the accesses already
     * reserved if that is longer. 0 for a free profile. This is the PM side of the comparison by
     * which the buffer manager's non-hierarchical caching tells that PM, not the block tier, is the
     * bottleneck: sampled often, it averages to the latency arriving reads see.
     */
    public long readLatencyNanos(long bytes) {
        if (free) {
            return 0;
        }
        long granules = profile.granules(0, bytes);
        if (granules == 0) {
            return 0;
        }
        int i = index(IoOp.READ);
        boolean small = granules < serviceNanos[i].length;
        long service = (small ? serviceNanos[i][(int) granules] : profile.serviceNanos(IoOp.READ, granules)) * 1000;
        long media = small ? mediaPicos[i][(int) granules] : profile.mediaPicos(IoOp.READ, granules);
        synchronized (lock) {
            // the clock is read under the lock: read before it, a caller preempted or kept waiting for the
            // lock meanwhile would measure the queue from a past instant and see it longer by the delay
            long nowPicos = (clock.getAsLong() - epochNanos) * 1000;
            if (profile.writeInterference() > 0) {
                service += (long) (service * profile.writeInterference() * writeShare(nowPicos));
            }
            long start = Math.max(nowPicos, channelFreeAtPicos[Channels.earliestFree(channelFreeAtPicos)]);
            long done = Math.max(start + service, Math.max(mediaFreeAtPicos, start) + media);
            return (done - nowPicos + 999) / 1000;
        }
    }

    /** Cost units (picoseconds of the device) charged by every access so far, by every user. */
    public long consumedPicos() {
        synchronized (lock) {
            return consumedPicos;
        }
    }

    /** Accesses of {@code op} scheduled so far (zero-byte accesses and a free profile's are not counted). */
    public long accesses(IoOp op) {
        synchronized (lock) {
            return op == IoOp.WRITE ? writes : op == IoOp.READ ? reads : 0;
        }
    }

    /** Share of the recent window's media time that went to writes, in [0, 1]; caller holds the lock. */
    private double writeShare(long nowPicos) {
        rollWindow(nowPicos);
        // sliding estimate: the part of the previous window still inside the last windowPicos, plus this one
        double elapsed = (double) (nowPicos - window * windowPicos) / windowPicos;
        double written = previousWindowWritePicos * (1 - elapsed) + windowWritePicos;
        return Math.min(1.0, written / windowPicos);
    }

    private void rollWindow(long nowPicos) {
        long current = Math.floorDiv(nowPicos, windowPicos);
        if (current != window) {
            previousWindowWritePicos = current == window + 1 ? windowWritePicos : 0;
            windowWritePicos = 0;
            window = current;
        }
    }

    private static void checkAccess(IoOp op, long offset, long bytes) {
        if (op != IoOp.READ && op != IoOp.WRITE) {
            throw new IllegalArgumentException("a PM access is a READ or a WRITE, got " + op
                    + "; persisting is part of a write's cost");
        }
        if (offset < 0 || bytes < 0) {
            throw new IllegalArgumentException("PM access [" + offset + ", +" + bytes + ") must have a non-negative"
                    + " offset and size");
        }
    }

    private static int index(IoOp op) {
        return op == IoOp.WRITE ? 1 : 0;
    }

    @Override
    public String toString() {
        return "EmulatedPm[" + profile.name() + "]";
    }
}
