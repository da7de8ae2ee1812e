package io.most.bench.streams;

import io.most.bench.workload.ycsb.ScrambledZipfian;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/** How the measured records pick their keys among the state's keys. */
public enum KeyDistribution {
    /** YCSB's scrambled zipfian (hot keys spread over the key space), skew {@code theta}. */
    ZIPFIAN("zipfian") {
        @Override
        LongSupplier chooser(long keys, double theta, SplittableRandom random) {
            ScrambledZipfian zipf = new ScrambledZipfian(keys, theta);
            return () -> zipf.next(random);
        }
    },
    /** Every key equally likely. */
    UNIFORM("uniform") {
        @Override
        LongSupplier chooser(long keys, double theta, SplittableRandom random) {
            return () -> random.nextLong(keys);
        }
    };

    private final String id;

    KeyDistribution(String id) {
        this.id = id;
    }

    /** The name {@code --distribution} takes. */
    public String id() {
        return id;
    }

    /** A source of key indexes in {@code [0, keys)} drawing from {@code random}. */
    abstract LongSupplier chooser(long keys, double theta, SplittableRandom random);

    /** The distribution named {@code id}, if there is one. */
    public static Optional<KeyDistribution> find(String id) {
        return Arrays.stream(values()).filter(d -> d.id.equals(id)).findFirst();
    }

    /** Every distribution's name, for messages. */
    public static List<String> ids() {
        return Arrays.stream(values()).map(KeyDistribution::id).toList();
    }
}
