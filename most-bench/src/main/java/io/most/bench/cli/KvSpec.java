package io.most.bench.cli;

import io.most.bench.Layer;
import io.most.bench.Units;
import io.most.bench.UsageException;
import io.most.bench.Registry;
import io.most.bench.kv.CacheEngines;
import io.most.bench.kv.KvEngines;
import io.most.bench.kv.MostKvEngine;
import io.most.bench.kv.RecordFormat;
import io.most.bench.kv.RecordPageLayout;
import io.most.bench.workload.Workload;
import io.most.bench.workload.cache.CacheWorkload;
import io.most.bench.workload.Workloads;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The options of {@code run} for YCSB workloads: which engines to compare and the records they hold.
 *
 * @param engines engine names, run in this order on the same records and request sequence
 * @param records records loaded before the run ({@code --records})
 * @param format  fields per record and bytes per field ({@code --fields}, {@code --field-length})
 * @param restartWindowNanos cache workloads: after the measured run, reopen each cache and measure its hit
 *                ratio over this long ({@code --restart-window}); empty for no restart
 */
record KvSpec(List<String> engines, long records, RecordFormat format, OptionalLong restartWindowNanos) {
    /** About 4x the default 64m DRAM pool of the page hierarchies at 1 KB records. */
    static final long DEFAULT_RECORDS = 250_000;
    /** The options only the record workloads take (the cache workload's values have their own sizes). */
    static final Set<String> RECORD_OPTIONS = Set.of("fields", "field-length");
    static final int MAX_FIELDS = 1024;
    static final int MAX_FIELD_LENGTH = 1 << 20;

    /** The options only the cache workload takes. */
    static final Set<String> CACHE_OPTIONS = Set.of("restart-window");

    /** The options only YCSB and cache workloads take. */
    static final Set<String> OPTIONS = Set.of("engines", "records", "fields", "field-length", "restart-window");

    /**
     * The YCSB options of {@code line}, or empty for a workload of another kind (which must not be
     * given any of them).
     *
     * @throws UsageException naming the option and what is valid
     */
    public static Optional<KvSpec> parse(Options line, Workload<?> workload, int pageSize) {
        boolean cache = workload.layer() == Layer.CACHE;
        if (workload.layer() != Layer.KV && !cache) {
            for (String option : OPTIONS) {
                // a tier workload takes --restart-window too (RunSpec: a reopened volume against a cold one)
                boolean tierRestart = workload.layer() == Layer.TIER && CACHE_OPTIONS.contains(option);
                if (line.value(option).isPresent() && !tierRestart) {
                    throw new UsageException("--" + option + " is an option of the YCSB workloads ("
                            + String.join(", ", ycsbNames()) + "); workload '" + workload.name() + "' takes none");
                }
            }
            return Optional.empty();
        }
        if (line.value("size").isPresent()) {
            throw new UsageException("--size: YCSB workloads size their data by --records (default "
                    + DEFAULT_RECORDS + ") of --fields x --field-length bytes");
        }
        if (cache) {
            for (String option : RECORD_OPTIONS) {
                if (line.value(option).isPresent()) {
                    throw new UsageException("--" + option + ": workload '" + workload.name() + "' draws its value"
                            + " sizes itself; it takes --records (distinct keys) and --engines");
                }
            }
            List<String> engines = parseEngines(line.value("engines").orElse(CacheEngines.DEFAULT),
                    CacheEngines.registry());
            long keys = line.value("records").map(v -> Units.parseWhole("--records", v, 3, Integer.MAX_VALUE))
                    .orElse(((CacheWorkload) workload).defaultKeys());
            OptionalLong restart = line.value("restart-window")
                    .map(v -> OptionalLong.of(Units.parseDurationNanos("--restart-window", v, false)))
                    .orElse(OptionalLong.empty());
            return Optional.of(new KvSpec(engines, keys, new RecordFormat(RecordFormat.DEFAULT_FIELDS,
                    RecordFormat.DEFAULT_FIELD_LENGTH), restart));
        }
        for (String option : CACHE_OPTIONS) {
            if (line.value(option).isPresent()) {
                throw new UsageException("--" + option + " is an option of the cache workload (reopen each cache"
                        + " after the run); workload '" + workload.name() + "' takes none");
            }
        }
        List<String> engines = parseEngines(line.value("engines").orElse(KvEngines.DEFAULT), KvEngines.registry());
        long records = line.value("records").map(v -> Units.parseWhole("--records", v, 3, Integer.MAX_VALUE))
                .orElse(DEFAULT_RECORDS);
        long fields = line.value("fields").map(v -> Units.parseWhole("--fields", v, 1, MAX_FIELDS))
                .orElse((long) RecordFormat.DEFAULT_FIELDS);
        long length = line.value("field-length").map(v -> Units.parseWhole("--field-length", v, 1, MAX_FIELD_LENGTH))
                .orElse((long) RecordFormat.DEFAULT_FIELD_LENGTH);
        RecordFormat format = new RecordFormat((int) fields, (int) length);
        // the hashed record engines need a record in a page: say so now, not after loading
        new RecordPageLayout(pageSize - MostKvEngine.PAYLOAD_RESERVE, format);
        return Optional.of(new KvSpec(engines, records, format, OptionalLong.empty()));
    }

    private static List<String> parseEngines(String text, Registry<?> registry) {
        List<String> names = new ArrayList<>();
        for (String name : text.split(",", -1)) {
            String trimmed = name.trim();
            if (trimmed.isEmpty()) {
                throw new UsageException("--engines '" + text + "' has an empty name; give a comma-separated list of: "
                        + String.join(", ", registry.names()));
            }
            registry.get(trimmed);
            if (names.contains(trimmed)) {
                throw new UsageException("--engines names '" + trimmed + "' twice");
            }
            names.add(trimmed);
        }
        return List.copyOf(names);
    }

    private static List<String> ycsbNames() {
        return Workloads.registry().all().stream().filter(w -> w.layer() == Layer.KV || w.layer() == Layer.CACHE)
                .map(Workload::name).toList();
    }
}
