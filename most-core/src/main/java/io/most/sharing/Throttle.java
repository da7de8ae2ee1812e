package io.most.sharing;

import io.most.device.IoOp;
import io.most.device.Pacer;
import io.most.device.PmAccount;

/**
 * How much one tenant's accesses to one {@link Resource} are held back, settable at any time from any
 * thread; accessing threads read it on every access and wait in {@link #admit} before their access
 * reaches the device. Three independent knobs:
 * <ul>
 *   <li>a {@linkplain #setDelayNanos delay} added to every access, Nyx's busy-loop delay (thesis §5.2.3);</li>
 *   <li>a {@linkplain #setShare share cap}: the tenant's accesses are paced so their cost units add up to
 *       at most that fraction of the device's time. A delay per access holds a 64-byte read back as much as
 *       a 4 KiB write; the cap holds back by cost, so "the same expense" for two tenants with different
 *       access patterns is exact, which interference analysis and the policies rely on;</li>
 *   <li>a {@linkplain #stall stall}: accesses wait until {@link #resume} (a resource limit reached until
 *       the next epoch, or the others paused while one tenant's standalone performance is measured).</li>
 * </ul>
 * Thread-safe. With no knob set an access costs one volatile read.
 */
public final class Throttle implements PmAccount.Gate {
    private final String name;
    private volatile boolean active;
    private volatile long delayNanos;
    /** Cap as a fraction of the device in (0, 1], or 0 for none. */
    private volatile double share;
    private volatile boolean stalled;
    /** Instant (System.nanoTime) from which the paced tenant may issue its next access. */
    private long paceFreeAtNanos;
    private final Object stallLock = new Object();

    Throttle(String name) {
        this.name = name;
    }

    /**
     * Adds {@code nanos} of waiting to every access (0 removes it).
     *
     * @throws IllegalArgumentException if {@code nanos} is negative
     */
    public void setDelayNanos(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("throttle delay of " + name + " must be >= 0 ns, got " + nanos);
        }
        delayNanos = nanos;
        refresh();
    }

    /** The delay added to every access, in nanoseconds. */
    public long delayNanos() {
        return delayNanos;
    }

    /**
     * Caps the tenant's use at {@code share} of the device's time (cost units per second over
     * 10^12); 1 or more removes the cap.
     *
     * @throws IllegalArgumentException if {@code share} is not a positive finite number
     */
    public void setShare(double share) {
        if (!(share > 0) || Double.isInfinite(share)) {
            throw new IllegalArgumentException("throttle share of " + name + " must be a fraction in (0, 1] of"
                    + " the device (1 = uncapped), got " + share);
        }
        this.share = share >= 1 ? 0 : share;
        refresh();
    }

    /** The cap as a fraction of the device, 1 when uncapped. */
    public double share() {
        double s = share;
        return s == 0 ? 1 : s;
    }

    /** Whether the tenant's use is capped below the whole device. */
    public boolean isCapped() {
        return share != 0;
    }

    /** Holds every further access of the tenant until {@link #resume}. */
    public void stall() {
        stalled = true;
        refresh();
    }

    /** Releases the accesses a {@link #stall} holds. */
    public void resume() {
        synchronized (stallLock) {
            stalled = false;
            stallLock.notifyAll();
        }
        refresh();
    }

    /** Whether accesses are held until {@link #resume}. */
    public boolean isStalled() {
        return stalled;
    }

    /** Removes every knob: no delay, no cap, no stall. */
    public void clear() {
        delayNanos = 0;
        share = 0;
        resume();
    }

    /** The knobs, to restore after an experiment. */
    Setting setting() {
        return new Setting(delayNanos, share(), stalled);
    }

    /** Puts back knobs taken by {@link #setting()}. */
    void restore(Setting setting) {
        delayNanos = setting.delayNanos();
        share = setting.share() >= 1 ? 0 : setting.share();
        if (setting.stalled()) {
            stall();
        } else {
            resume();
        }
    }

    record Setting(long delayNanos, double share, boolean stalled) {
    }

    private void refresh() {
        active = stalled || delayNanos != 0 || share != 0;
    }

    /**
     * Waits as the knobs say before an access costing {@code costPicos}. Keeps the thread's interrupt
     * status: a tenant's thread is not the controller's to cancel.
     */
    @Override
    public void admit(IoOp op, long costPicos) {
        if (!active) {
            return;
        }
        boolean interrupted = false;
        if (stalled) {
            synchronized (stallLock) {
                while (stalled) {
                    try {
                        stallLock.wait();
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
            }
        }
        long now = System.nanoTime();
        long until = now + delayNanos;
        double s = share;
        if (s != 0) {
            // pace: the tenant's own clock advances by the access's cost over its share, so its accesses
            // add up to at most `s` of the device; an idle tenant earns no credit beyond "now"
            long step = (long) (costPicos / (s * 1000));
            synchronized (this) {
                long start = Math.max(now, paceFreeAtNanos);
                paceFreeAtNanos = start + step;
                until = Math.max(until, start);
            }
        }
        Pacer.awaitUntil(until);
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "Throttle[" + name + (stalled ? ", stalled" : "") + (share != 0 ? ", share " + share : "")
                + (delayNanos != 0 ? ", delay " + delayNanos + " ns" : "") + "]";
    }
}
