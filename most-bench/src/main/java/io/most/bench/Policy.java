package io.most.bench;

import java.util.Optional;

/**
 * How data is placed on a hierarchy's devices: {@code raw} (one device, no placement) for the block
 * layer now; MOST, HeMem, BATMAN, striping (block layer) and the Spitfire presets (page layer) later.
 * A run attaches each requested policy in turn to the same opened hierarchy.
 *
 * @param <T> the target the policy builds, see {@link Layer}
 */
public interface Policy<T> extends Named {

    /** The layer whose workloads this policy serves. */
    Layer<T> layer();

    /**
     * Why this policy cannot run on {@code hierarchy} (e.g. raw on a two-device hierarchy), or empty
     * if it can. Checked before any device is opened.
     */
    Optional<String> unsupportedReason(Hierarchy hierarchy);

    /**
     * Builds the target over the opened hierarchy. Closing the result releases what the policy built
     * but leaves the hierarchy's devices open for the next policy.
     */
    Target<T> attach(OpenHierarchy hierarchy);

    /**
     * What a workload runs against, and how to detach it.
     *
     * @param target  the device (or page store) the workload drives
     * @param release undoes {@link #attach}; never closes the hierarchy's devices
     */
    record Target<T>(T target, Runnable release) implements AutoCloseable {
        @Override
        public void close() {
            release.run();
        }
    }
}
