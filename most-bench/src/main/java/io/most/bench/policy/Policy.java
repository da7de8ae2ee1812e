package io.most.bench.policy;

import io.most.bench.Layer;
import io.most.bench.Named;
import io.most.bench.hierarchy.Hierarchy;
import io.most.bench.hierarchy.OpenHierarchy;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * How data is placed on a hierarchy's devices: {@code raw} (one device, no placement) for the block
 * layer; the tiered volume's placements (MOST, HeMem, BATMAN, Colloid...) for the tier layer; the
 * Spitfire migration presets and the adaptive tuner for the page layer. A run attaches each requested policy in turn to the same opened hierarchy.
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

    /** Whether the policy takes {@code --epoch} (the adaptive ones). */
    default boolean usesTuningEpoch() {
        return false;
    }

    /**
     * Builds the target over the opened hierarchy. Closing the result releases what the policy built
     * but leaves the hierarchy's devices open for the next policy.
     */
    Target<T> attach(OpenHierarchy hierarchy, Settings settings);

    /**
     * Run options that policies may use.
     *
     * @param tuningEpoch how long an adaptive policy measures each candidate ({@code --epoch})
     */
    record Settings(Duration tuningEpoch) {
        /** The defaults: a 1 s tuning epoch. */
        public static final Settings DEFAULTS = new Settings(Duration.ofSeconds(1));
    }

    /**
     * What a workload runs against, and how to detach it.
     *
     * @param target  the device (or page store) the workload drives
     * @param release undoes {@link #attach}; never closes the hierarchy's devices; after {@link #reopen()} it
     *                releases the reopened target
     * @param reopen  closes the current target cleanly and opens it again on the same data (a warm restart),
     *                returning the reopened target; empty when the policy's target cannot be reopened
     */
    record Target<T>(T target, Runnable release, Optional<Supplier<T>> reopen) implements AutoCloseable {
        /** A target that cannot be reopened. */
        public Target(T target, Runnable release) {
            this(target, release, Optional.empty());
        }

        /**
         * Closes the target cleanly and opens it again on what it was built on; {@link #close()} then
         * releases the reopened one.
         *
         * @throws UnsupportedOperationException if this policy's target cannot be reopened
         */
        public T reopened() {
            return reopen.orElseThrow(() -> new UnsupportedOperationException("the target " + target
                    + " cannot be closed and reopened on its data")).get();
        }

        @Override
        public void close() {
            release.run();
        }
    }
}
