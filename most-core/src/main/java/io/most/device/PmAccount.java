package io.most.device;

import java.util.concurrent.atomic.LongAdder;

/**
 * One user's (a tenant's) account on a shared {@link EmulatedPm}: its accesses pay the shared
 * device's time like everyone else's, and are counted in Nyx cost units, {@code 1 / MaxIOPS} of each
 * access's kind and size (thesis §5.2.3), so a tenant that reads 4 KiB and one that writes 64 B are
 * charged for the share of the device they really use, not for their bytes.
 *
 * <p>Counters are striped per thread and combined only when read ({@link LongAdder}), as Nyx keeps
 * per-thread counters and combines them lazily: counting costs no shared write on the hot path.
 * Thread-safe.
 */
public final class PmAccount {
    private final String name;
    private final EmulatedPm device;
    private final LongAdder costPicos = new LongAdder();
    private final LongAdder reads = new LongAdder();
    private final LongAdder writes = new LongAdder();
    private final Gate gate;

    /**
     * What an access passes before it reaches the device: a sharing controller's throttle, which may
     * delay the calling thread (or stall it until released) by the access's cost.
     */
    @FunctionalInterface
    public interface Gate {
        /** A gate that lets every access through at once. */
        Gate OPEN = (op, costPicos) -> { };

        /**
         * Called on the accessing thread before an access of {@code op} that costs {@code costPicos}
         * (see {@link EmulatedPm#costPicos}); returns when the access may proceed.
         */
        void admit(IoOp op, long costPicos);
    }

    /**
     * @param name   the tenant's name, for reports
     * @param device the device this tenant shares with others
     */
    public PmAccount(String name, EmulatedPm device) {
        this(name, device, Gate.OPEN);
    }

    /**
     * An account whose accesses first pass {@code gate}, so a controller can throttle this tenant.
     *
     * @param name   the tenant's name, for reports
     * @param device the device this tenant shares with others
     * @param gate   what each access waits on before it is scheduled
     */
    public PmAccount(String name, EmulatedPm device, Gate gate) {
        if (name == null || name.isBlank() || device == null || gate == null) {
            throw new IllegalArgumentException("a PM account needs a non-blank name, a device and a gate, got '"
                    + name + "' on " + device + " through " + gate);
        }
        this.name = name;
        this.device = device;
        this.gate = gate;
    }

    /** The tenant's name. */
    public String name() {
        return name;
    }

    /** The shared device. */
    public EmulatedPm device() {
        return device;
    }

    /** Loads {@code bytes} through the shared device and counts them to this tenant. */
    public void read(long bytes) {
        access(IoOp.READ, 0, bytes);
    }

    /** Stores and persists {@code bytes} through the shared device and counts them to this tenant. */
    public void write(long bytes) {
        access(IoOp.WRITE, 0, bytes);
    }

    /** Performs {@code op} on {@code [offset, offset + bytes)} through the shared device and counts it. */
    public void access(IoOp op, long offset, long bytes) {
        device.awaitCompletion(reserve(op, offset, bytes));
    }

    /**
     * Passes the gate, then schedules the access on the shared device, counts it to this tenant and
     * returns its completion instant without waiting (see {@link EmulatedPm#reserve}).
     */
    public long reserve(IoOp op, long offset, long bytes) {
        long cost = device.costPicos(op, offset, bytes);
        if (bytes != 0) {
            gate.admit(op, cost);
        }
        long done = device.reserve(op, offset, bytes);
        if (bytes != 0) {
            costPicos.add(cost);
            (op == IoOp.WRITE ? writes : reads).increment();
        }
        return done;
    }

    /** Cost units this tenant used so far, in picoseconds of the whole device. */
    public long costPicos() {
        return costPicos.sum();
    }

    /** Accesses of {@code op} this tenant made so far. */
    public long accesses(IoOp op) {
        return op == IoOp.WRITE ? writes.sum() : op == IoOp.READ ? reads.sum() : 0;
    }

    @Override
    public String toString() {
        return "PmAccount[" + name + " on " + device.profile().name() + "]";
    }
}
