package io.most.bench.workload;

import io.most.bench.Layer;
import io.most.bench.Named;
import io.most.bench.driver.LoadDriver;
import io.most.bench.hierarchy.Hierarchy;
import io.most.device.DeviceProfile;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.SplittableRandom;

/**
 * A named stream of operations against the target of one {@link Layer}: random block reads and
 * writes; Spitfire's YCSB mixes against a page store; hot-set and burst workloads against tiered
 * volumes; YCSB A-F against key-value engines. The {@link LoadDriver} owns threads, timing and latency; a workload only says what one operation is,
 * what to reset after warm-up and what to add to the report.
 *
 * @param <T> what the workload drives
 */
public interface Workload<T> extends Named {

    /** The layer this workload drives; {@code --policies} must name policies of this layer. */
    Layer<T> layer();

    /**
     * The operation rate that {@code --intensity 1.0} means on {@code hierarchy} with blocks of
     * {@code blockSize} bytes (for block workloads: the model's max IOPS for this op mix), or empty
     * when the hierarchy has no service model to say what saturates it.
     */
    OptionalDouble saturationRate(Hierarchy hierarchy, int blockSize);

    /**
     * The model's mean service time of one operation on {@code hierarchy}'s fastest device (no
     * queueing), which with the open loop's rate says by Little's law how many driver threads are busy
     * at once at the least; empty when the hierarchy has no model or the workload runs closed loop only.
     */
    default OptionalDouble meanServiceNanos(Hierarchy hierarchy, int blockSize) {
        return OptionalDouble.empty();
    }

    /**
     * As {@link #meanServiceNanos}, on the slowest device a request can reach
     * ({@link Hierarchy#slowestModel()}): the threads busy when every request pays that device's latency,
     * which is what the open loop's default thread count is sized for.
     */
    default OptionalDouble slowestServiceNanos(Hierarchy hierarchy, int blockSize) {
        return meanServiceNanos(hierarchy, blockSize);
    }

    /**
     * Whether the workload means something only as an open loop (its load changes over time by
     * {@link Session#rateFactor}, which a closed loop ignores).
     */
    default boolean needsOpenLoop() {
        return false;
    }

    /** Prepares a run against {@code target}. */
    Session start(T target, Setup setup);

    /**
     * The layer of the hierarchies (and of the {@code --policies}) this workload runs on: its own
     * layer, except for workloads whose target is built next to a hierarchy of another layer.
     */
    default Layer<?> hierarchyLayer() {
        return layer();
    }

    /**
     * Bytes per I/O, or the page size on page hierarchies, when {@code --block-size} is not given: the
     * hierarchy's default unless the workload has a reason of its own.
     */
    default int defaultBlockSize(Hierarchy hierarchy) {
        return hierarchy.defaultBlockSize();
    }

    /** Whether the workload draws keys from a zipfian distribution whose skew {@code --theta} sets. */
    default boolean takesTheta() {
        return false;
    }

    /**
     * What a run is set up with.
     *
     * @param dataSize  bytes the workload spreads its operations over
     * @param blockSize bytes per block operation (page size on the page layer)
     * @param seed      base seed; each thread derives its own, so every policy sees the same requests
     * @param model     the hierarchy's service model, if emulated
     * @param theta     zipfian skew ({@code --theta}); empty = the workload's default
     * @param queueDepth block workloads: I/Os each thread keeps in flight, one submitted as each
     *                   completes ({@code --queue-depth}); 1 = one synchronous call per operation
     */
    record Setup(long dataSize, int blockSize, long seed, Optional<DeviceProfile> model, OptionalDouble theta,
                 int queueDepth) {
        /** A setup without a skew. */
        public Setup(long dataSize, int blockSize, long seed, Optional<DeviceProfile> model) {
            this(dataSize, blockSize, seed, model, OptionalDouble.empty());
        }

        /** A setup with one I/O per operation. */
        public Setup(long dataSize, int blockSize, long seed, Optional<DeviceProfile> model, OptionalDouble theta) {
            this(dataSize, blockSize, seed, model, theta, 1);
        }

        /**
         * The random source of driver thread {@code thread}: the {@code thread}-th split of one seeded
         * root, so threads draw independent streams and the same seed and thread give the same
         * requests. (Seeding thread {@code t} with {@code seed + t * 0x9e3779b97f4a7c15L} would not do:
         * that is SplittableRandom's own increment, so every thread would replay thread 0's stream a
         * few steps behind it.)
         */
        public SplittableRandom randomFor(int thread) {
            SplittableRandom root = new SplittableRandom(seed);
            SplittableRandom random = root.split();
            for (int i = 0; i < thread; i++) {
                random = root.split();
            }
            return random;
        }
    }

    /** One run of a workload against one target. */
    interface Session {
        /**
         * A client for driver thread {@code thread} (0-based), created on that thread and used only by
         * it, so it may hold thread-confined buffers and generators.
         */
        Client newClient(int thread);

        /**
         * The open-loop rate at {@code elapsedNanos} since the start of a run of {@code totalNanos}
         * (warm-up included), as a multiple of the configured rate; must be positive. Default 1: a
         * constant rate. Bursty workloads vary it.
         */
        default double rateFactor(long elapsedNanos, long totalNanos) {
            return 1;
        }

        /** Warm-up is over: forget what the target counted so far. */
        void beginMeasurement();

        /** Adds per-run fields (counts from the target, model expectations) to {@code fields}. */
        void report(Map<String, Object> fields);
    }

    /** The per-thread source of operations. */
    interface Client extends AutoCloseable {
        /** {@link #startOfCompleted()}: the operation began when the call did. */
        long STARTED_WITH_CALL = Long.MIN_VALUE;

        /** Performs the next operation; an exception counts as an error of that operation. */
        void next();

        /**
         * When the operation the last {@link #next()} completed began ({@link System#nanoTime()}), for a
         * client that keeps several in flight: each call then finishes one submitted by an earlier call,
         * and its latency counts from that submission, not from the call (as fio counts an I/O's
         * completion latency). {@link #STARTED_WITH_CALL} (the default): the call's own start.
         */
        default long startOfCompleted() {
            return STARTED_WITH_CALL;
        }

        /** Releases per-thread resources. */
        @Override
        void close();
    }
}
