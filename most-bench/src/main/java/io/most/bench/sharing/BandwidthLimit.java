package io.most.bench.sharing;

import io.most.sharing.Resource;
import io.most.sharing.Tenant;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The classic limit Nyx is compared with in thesis Fig. 5.6: a tenant may move so many value bytes per
 * second (what a hosted memcache's bandwidth limit counts), and once it has moved them in a one-second
 * epoch its PM and device accesses stall until the next epoch, checked every 10 ms as Nyx checks its
 * resource limit. Bytes are the same for a 4 KiB get and a 4 KiB write and for one 4 KiB get and 64
 * 64-byte gets, which is why it cannot bound what a tenant costs the device. Runs on a thread of its
 * own until {@link #close()}, which resumes every tenant it stalled.
 */
final class BandwidthLimit implements AutoCloseable {
    static final long EPOCH_NANOS = 1_000_000_000L;
    static final long TICK_NANOS = 10_000_000L;

    /** One limited tenant: its bytes so far and its limit in bytes per second. */
    record Limited(Tenant tenant, LongSupplier bytes, double bytesPerSecond) {
    }

    private final List<Limited> limited;
    private final Thread thread;
    private volatile boolean closed;

    BandwidthLimit(List<Limited> limited) {
        this.limited = List.copyOf(limited);
        this.thread = Thread.ofPlatform().daemon().name("nyx-bandwidth-limit").start(this::loop);
    }

    private void loop() {
        long[] base = new long[limited.size()];
        while (!closed) {
            long epochEnd = System.nanoTime() + EPOCH_NANOS;
            for (int i = 0; i < base.length; i++) {
                base[i] = limited.get(i).bytes().getAsLong();
                setStalled(limited.get(i).tenant(), false);
            }
            while (!closed && System.nanoTime() < epochEnd) {
                java.util.concurrent.locks.LockSupport.parkNanos(TICK_NANOS);
                for (int i = 0; i < base.length; i++) {
                    Limited l = limited.get(i);
                    if (l.bytes().getAsLong() - base[i] >= l.bytesPerSecond() * EPOCH_NANOS / 1e9) {
                        setStalled(l.tenant(), true);
                    }
                }
            }
        }
    }

    private static void setStalled(Tenant tenant, boolean stalled) {
        for (Resource r : Resource.values()) {
            if (stalled) {
                tenant.throttle(r).stall();
            } else {
                tenant.throttle(r).resume();
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        limited.forEach(l -> setStalled(l.tenant(), false));
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
