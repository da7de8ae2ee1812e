package io.most.sharing;

import java.util.List;
import java.util.Objects;

/**
 * A thread that enforces one {@link SharingPolicy} over the tenants of a {@link SharedDevices} set on
 * one {@link Resource}, as Nyx's controller does: the policy observes the tenants' use and
 * performance, runs its experiments and sets their throttles, round after round, until
 * {@link #close()}, which stops the thread and removes every throttle it set.
 *
 * <p>The tenants governed are those that joined the set before {@link #start}; join every tenant
 * first. One controller per resource: a second controller on the same resource would fight the first
 * over the same throttles. A PM and a block-device controller may run side by side, but they read the
 * same per-tenant request statistics and each starts new latency windows, so give a latency-based
 * policy (QoS) to one of them only.
 */
public final class SharingController implements AutoCloseable {
    private final Probe probe;
    private final SharingPolicy policy;
    private final Thread thread;
    private volatile boolean closed;
    private volatile Throwable failure;

    SharingController(List<? extends Regulated> tenants, Resource resource, SharingPolicy policy, SharingClock clock) {
        this.probe = new Probe(tenants, Objects.requireNonNull(resource, "resource"), clock);
        this.policy = Objects.requireNonNull(policy, "policy");
        policy.bind(probe);
        this.thread = Thread.ofPlatform().daemon().name("most-sharing-" + resource.name().toLowerCase(java.util.Locale.ROOT))
                .unstarted(this::loop);
    }

    /**
     * Starts a controller enforcing {@code policy} over {@code devices}' tenants on {@code resource}.
     *
     * @throws IllegalArgumentException if the policy names a tenant that has not joined, or the set has
     *                                  no block device and {@code resource} is {@link Resource#DEVICE}
     * @throws IllegalStateException    if the policy already governs another controller
     */
    public static SharingController start(SharedDevices devices, Resource resource, SharingPolicy policy) {
        if (resource == Resource.DEVICE && !devices.hasDevice()) {
            throw new IllegalArgumentException("this device set has PM only; there is no block device to govern");
        }
        List<Tenant> tenants = devices.tenants();
        if (tenants.isEmpty()) {
            throw new IllegalArgumentException("no tenant has joined the device set; join them before starting a"
                    + " controller");
        }
        SharingController controller = new SharingController(tenants, resource, policy, SharingClock.SYSTEM);
        controller.thread.start();
        return controller;
    }

    /** Runs rounds on the calling thread until the clock passes {@code deadline}: the plant's driver. */
    void runUntil(long deadline) throws InterruptedException {
        while (probe.now() < deadline) {
            policy.iterate(probe);
        }
    }

    Probe probe() {
        return probe;
    }

    private void loop() {
        try {
            while (!closed) {
                policy.iterate(probe);
            }
        } catch (InterruptedException stop) {
            // close() interrupts the sleep the policy is in
        } catch (RuntimeException | Error e) {
            failure = e;
        } finally {
            probe.clearAll();
        }
    }

    /** Whether the controller thread runs. */
    public boolean isRunning() {
        return thread.isAlive();
    }

    /**
     * Stops the controller and removes every throttle (stalled tenants resume). Idempotent.
     *
     * @throws IllegalStateException if the policy failed while running, with that failure as cause
     */
    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        probe.clearAll(); // also when rounds ran on another thread (runUntil) and the loop never did
        if (failure != null) {
            throw new IllegalStateException("sharing policy " + policy + " failed", failure);
        }
    }

    @Override
    public String toString() {
        return "SharingController[" + policy + "]";
    }
}
