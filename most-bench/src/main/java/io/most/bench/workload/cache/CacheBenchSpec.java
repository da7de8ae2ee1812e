package io.most.bench.workload.cache;

import io.most.bench.workload.ycsb.ScrambledZipfian;
import java.util.Locale;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * One CacheBench-like workload: its operation shares, key and value sizes, key distribution, backing
 * store and bursts, and the scale at which it runs the paper's setting on this machine.
 *
 * @param name         the {@code --workload} name
 * @param summary      what it models, for the help
 * @param scale        the paper's setting and how this workload scales it, for the help, the report and
 *                     docs/BENCH.md
 * @param get          share of look-aside gets (set on a miss)
 * @param set          share of sets
 * @param readModifyWrite share of gets followed by a set of the same key (YCSB F)
 * @param loneGet      share of gets of keys never set
 * @param loneSet      share of sets of keys never requested again
 * @param keys         key sizes
 * @param values       value sizes
 * @param distribution how keys of gets and sets are drawn
 * @param fetchMicros  the backing store's fetch on a get miss, in real microseconds (0: none)
 * @param burst        the load bursts of an open loop, if any
 * @param defaultKeys  distinct keys when {@code --records} is not given
 */
record CacheBenchSpec(String name, String summary, String scale, double get, double set, double readModifyWrite,
                      double loneGet, double loneSet, CacheKeys keys, ValueSizes values, Distribution distribution,
                      double fetchMicros, Optional<Burst> burst, long defaultKeys) {
    /** Lone gets draw key numbers in {@code keys + [0, 2^40)}: never a key of the key space nor a lone set's. */
    static final long LONE_GET_MASK = (1L << 40) - 1;
    /** Lone sets take key numbers from here up, each once. */
    static final long LONE_SET_BASE = 1L << 42;

    CacheBenchSpec {
        double total = get + set + readModifyWrite + loneGet + loneSet;
        if (Math.abs(total - 1) > 1e-9 || get < 0 || set < 0 || readModifyWrite < 0 || loneGet < 0 || loneSet < 0) {
            throw new IllegalArgumentException("workload " + name + ": operation shares must be non-negative and add"
                    + " up to 1, not " + total);
        }
    }

    /** The kinds of operation. */
    enum Operation { GET, SET, READ_MODIFY_WRITE, LONE_GET, LONE_SET }

    /** The operation a uniform draw {@code pick} in [0, 1) stands for. */
    Operation operation(double pick) {
        double at = get;
        if (pick < at) {
            return Operation.GET;
        }
        if (pick < (at += set)) {
            return Operation.SET;
        }
        if (pick < (at += readModifyWrite)) {
            return Operation.READ_MODIFY_WRITE;
        }
        if (pick < at + loneGet) {
            return Operation.LONE_GET;
        }
        return loneSet > 0 ? Operation.LONE_SET : Operation.GET; // a rounding remainder
    }

    /** The share of operations that write (sets, read-modify-writes, lone sets), misses aside. */
    double writeShare() {
        return set + readModifyWrite + loneSet;
    }

    /** The shares, one line. */
    String mixDescription() {
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "Get %s", share(get)));
        if (set > 0) {
            s.append(", Set ").append(share(set));
        }
        if (readModifyWrite > 0) {
            s.append(", read-modify-write ").append(share(readModifyWrite));
        }
        if (loneGet > 0) {
            s.append(", LoneGet ").append(share(loneGet));
        }
        if (loneSet > 0) {
            s.append(", LoneSet ").append(share(loneSet));
        }
        return s.toString();
    }

    private static String share(double x) {
        return String.format(Locale.ROOT, "%.3g", x);
    }

    /** The help's line. */
    String describe() {
        return summary + ": " + mixDescription() + "; keys " + keys.describe() + ", values " + values.describe() + ", "
                + distribution.describe() + (fetchMicros > 0 ? String.format(Locale.ROOT,
                "; a miss fetches for %.1f ms (x the devices' time scale) and sets", fetchMicros / 1000)
                : "; a miss sets") + burst.map(b -> "; " + b.describe()).orElse("") + "; " + scale;
    }

    /** Load bursts of an open loop: the full rate for {@code burstNanos} of every {@code periodNanos}. */
    record Burst(long periodNanos, long burstNanos) {
        Burst {
            if (burstNanos <= 0 || periodNanos <= burstNanos) {
                throw new IllegalArgumentException("a burst must be shorter than its period");
            }
        }

        String describe() {
            return String.format(Locale.ROOT, "open loop only: --intensity for %.0f s of every %.0f s, %.2f of it"
                    + " between", burstNanos / 1e9, periodNanos / 1e9, CacheBenchWorkload.BETWEEN_BURSTS);
        }
    }

    /** How keys of gets and sets are drawn over {@code 0 .. keys - 1}. */
    sealed interface Distribution {
        /** A per-thread draw over {@code keys} keys. */
        KeyDraw newDraw(long keys);

        /** One line for reports. */
        String describe();
    }

    /** A per-thread source of key numbers. */
    interface KeyDraw {
        long next(SplittableRandom random);
    }

    /** YCSB's scrambled zipfian of skew {@code theta}. */
    record Zipf(double theta) implements Distribution {
        @Override
        public KeyDraw newDraw(long keys) {
            ScrambledZipfian zipf = new ScrambledZipfian(keys, theta);
            return zipf::next;
        }

        @Override
        public String describe() {
            return "zipfian " + theta;
        }
    }

    /**
     * A hot set: the first {@code hotShare} of the keys take {@code hotProbability} of the requests,
     * uniformly within the hot set and within the rest.
     */
    record HotSet(double hotShare, double hotProbability) implements Distribution {
        @Override
        public KeyDraw newDraw(long keys) {
            long hot = Math.max(1, Math.min(keys - 1, (long) (keys * hotShare)));
            return random -> random.nextDouble() < hotProbability ? random.nextLong(hot)
                    : hot + random.nextLong(keys - hot);
        }

        @Override
        public String describe() {
            return String.format(Locale.ROOT, "hot set of %.0f%% of the keys at %.0f%% of the requests (uniform within)",
                    hotShare * 100, hotProbability * 100);
        }
    }
}
