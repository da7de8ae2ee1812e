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

    /**
     * @param name   the tenant's name, for reports
     * @param device the device this tenant shares with others
     */
    public PmAccount(String name, EmulatedPm device) {
        if (name == null || name.isBlank() || device == null) {
            throw new IllegalArgumentException("a PM account needs a non-blank name and a device, got '" + name
                    + "' on " + device);
        }
        this.name = name;
        this.device = device;
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
     * Schedules the access on the shared device, counts it to this tenant and returns its completion
     * instant without waiting (see {@link EmulatedPm#reserve}).
     */
    public long reserve(IoOp op, long offset, long bytes) {
        long done = device.reserve(op, offset, bytes);
        record(op, offset, bytes);
        return done;
    }

    private void record(IoOp op, long offset, long bytes) {
        if (bytes == 0) {
            return;
        }
        costPicos.add(device.costPicos(op, offset, bytes));
        (op == IoOp.WRITE ? writes : reads).increment();
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
