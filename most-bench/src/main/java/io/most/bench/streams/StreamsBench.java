package io.most.bench.streams;

import io.most.bench.ArtifactVersion;
import io.most.bench.BenchException;
import io.most.bench.ScratchFiles;
import io.most.bench.Units;
import io.most.bench.driver.RunResult;
import io.most.bench.report.Json;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Measures one engine once (the coordinator of a forked run): starts an in-process KRaft broker in a
 * fresh directory, writes the whole input (untimed; the load, the measured records and the tail), starts
 * the Kafka Streams application in a JVM of its own ({@link StreamsAppMain}) and waits for its report of
 * the measured window. Then, unless told not to, it kills that JVM with SIGKILL while it processes the
 * tail, restarts it on the same state directory and application id, and reports the time from the kill
 * to the restarted instance's first processed record. Everything is deleted afterwards.
 */
public final class StreamsBench {
    static final String INPUT = "input";
    static final String OUTPUT = "output";
    /** The least time to wait for the window or a restart; larger inputs get more ({@link #deadlineMillis}). */
    private static final long MIN_WAIT_MILLIS = 600_000;

    private StreamsBench() {
    }

    /** Runs {@code s} once and returns its report row; progress goes to {@code err}. */
    public static RunResult measure(StreamsSettings s, PrintStream err) {
        Path scratch = scratchDirectory(s);
        try (EmbeddedBroker broker = EmbeddedBroker.start(scratch.resolve("broker"))) {
            return measure(s, broker, scratch, err);
        } finally {
            ScratchFiles.deleteTree(scratch);
        }
    }

    private static RunResult measure(StreamsSettings s, EmbeddedBroker broker, Path scratch, PrintStream err) {
        Map<String, Object> f = header(s);
        broker.createTopics(s.partitions(), INPUT, OUTPUT);
        InputRecords input = s.input();
        long start = System.nanoTime();
        produce(broker.bootstrapServers(), input::forEach);
        f.put("produce_s", Units.round((System.nanoTime() - start) / 1e9, 2));
        err.printf(Locale.ROOT, "%s: wrote %,d input records in %.1f s; starting Kafka Streams%n", label(s),
                input.total(), (System.nanoTime() - start) / 1e9);
        Path stateDir = scratch.resolve("state");
        String appId = "most-bench-" + s.workload().id();
        AppArgs measure = new AppArgs(false, broker.bootstrapServers(), stateDir, appId, INPUT, OUTPUT, s,
                scratch.resolve("measured.json"));
        long killedAtMillis;
        try (AppProcess app = AppProcess.start(measure, err)) {
            app.await("measured", deadlineMillis(input.total()));
            f.putAll(readReport(measure.report()));
            killedAtMillis = System.currentTimeMillis();
            if (s.killRestart()) {
                app.kill9();
            }
        }
        f.put("state_dir_bytes", directoryBytes(stateDir));
        if ((long) ((Number) f.get("loaded_records")).longValue() < s.keys()) {
            err.printf(Locale.ROOT, "warning: %s: the window ended before every key was loaded (%s of %,d): the"
                    + " state was smaller than planned in part of it%n", label(s), f.get("loaded_records"), s.keys());
        }
        err.printf(Locale.ROOT, "%s: %,.0f records/s, p99 %.1f us, RSS max %s%n", label(s),
                ((Number) f.get("throughput_ops")).doubleValue(), ((Number) f.get("p99_us")).doubleValue(),
                Units.formatBytes(((Number) f.get("rss_max_bytes")).longValue()));
        if (s.killRestart()) {
            AppArgs restart = new AppArgs(true, broker.bootstrapServers(), stateDir, appId, INPUT, OUTPUT, s,
                    scratch.resolve("restart.json"));
            try (AppProcess app = AppProcess.start(restart, err)) {
                // written while the JVM starts, so that there is input to process again whatever the tail's fate
                produce(broker.bootstrapServers(), input::forEachRestart);
                app.await("first", deadlineMillis(s.keys()));
            }
            Map<String, Object> r = readReport(restart.report());
            long first = ((Number) r.get("first_record_epoch_ms")).longValue();
            long jvmStart = ((Number) r.get("jvm_start_epoch_ms")).longValue();
            f.put("restart_input_records", InputRecords.RESTART_RECORDS);
            f.put("restart_s", Units.round((first - killedAtMillis) / 1e3, 3));
            f.put("restart_jvm_to_first_s", Units.round((first - jvmStart) / 1e3, 3));
            f.put("restart_restored_records", r.get("restored_records"));
            f.put("restart_restore_s", r.get("restore_s"));
            err.printf(Locale.ROOT, "%s: kill -9 to processing again %.2f s (%s changelog records restored in %s s)%n",
                    label(s), (first - killedAtMillis) / 1e3, r.get("restored_records"), r.get("restore_s"));
        } else {
            f.put("restart_s", Double.NaN);
        }
        f.put("output_end_offsets", broker.endOffsets(OUTPUT, s.partitions()));
        return RunResult.ofFields(f);
    }

    /** The fields that say what was measured and how every engine was configured. */
    private static Map<String, Object> header(StreamsSettings s) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("engine", s.engine().id());
        f.put("workload", s.workload().id());
        f.put("distribution", s.distribution().id());
        if (s.distribution() == KeyDistribution.ZIPFIAN) {
            f.put("theta", s.theta());
        }
        f.put("keys", s.keys());
        f.put("records", s.measured());
        f.put("tail_records", s.tail());
        f.put("value_bytes", s.workload().valueBytes());
        f.put("state_bytes", s.stateBytes());
        f.put("dram_budget_bytes", s.budgetBytes());
        f.put("state_vs_budget", Units.round((double) s.stateBytes() / s.budgetBytes(), 2));
        f.put("threads", s.threads());
        f.put("partitions", s.partitions());
        f.put("guarantee", s.guarantee());
        f.put("transactional_stores", s.transactionalStores());
        f.put("seed", s.seed());
        f.put("streams_heap_bytes", s.heapBytes());
        f.put("engine_config", s.engine().describe(s.budgetBytes(), s.partitions()));
        f.put("kafka_streams", ArtifactVersion.of("kafka"));
        f.put("latency_source", "processor-side timer: System.nanoTime() in a peek after the source and in a peek"
                + " after the store's update (toStream()), same stream thread, record cache off: the store's get and"
                + " put and the changelog send; measured records only");
        f.put("memory_source", "VmRSS of /proc/self/status of the Kafka Streams JVM, sampled every "
                + MemorySampler.PERIOD_MILLIS + " ms; rss_base_bytes before KafkaStreams.start()");
        f.put("disk_source", "write_bytes and read_bytes of /proc/self/io of the Kafka Streams JVM over the measured"
                + " window (the broker runs in another JVM)");
        return f;
    }

    /** Writes the records {@code records} hands its sink and waits until the broker has them all. */
    static void produce(String bootstrap, java.util.function.Consumer<InputRecords.Sink> records) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        BenchException[] failure = new BenchException[1];
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(p, new StringSerializer(),
                new ByteArraySerializer())) {
            records.accept((key, value) -> producer.send(new ProducerRecord<>(INPUT, key, value), (md, e) -> {
                if (e != null && failure[0] == null) {
                    failure[0] = new BenchException("cannot write the input: " + e, e);
                }
            }));
            producer.flush();
        }
        if (failure[0] != null) {
            throw failure[0];
        }
    }

    private static long deadlineMillis(long records) {
        return Math.max(MIN_WAIT_MILLIS, records * 5);
    }

    private static String label(StreamsSettings s) {
        return s.engine().id() + " " + s.workload().id() + " " + s.distribution().id();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> readReport(Path file) {
        try {
            return (Map<String, Object>) Json.read(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the Kafka Streams JVM's report " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Bytes the files under {@code dir} occupy on disk ({@code du -sB1}), the stores' files after the kill:
     * MOST's data files are sparse (their length is the configured capacity), so their length says
     * nothing. NaN where {@code du} is missing or fails; 0 for a directory that was never created (an
     * instance with only in-memory stores).
     */
    static double directoryBytes(Path dir) {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try {
            Process du = new ProcessBuilder("du", "-s", "-B1", dir.toString()).redirectErrorStream(true).start();
            String out = new String(du.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (du.waitFor() != 0) {
                return Double.NaN;
            }
            return Long.parseLong(out.split("\\s+")[0]);
        } catch (IOException | NumberFormatException e) {
            return Double.NaN;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Double.NaN;
        }
    }

    private static Path scratchDirectory(StreamsSettings s) {
        if (s.dir().isEmpty()) {
            return ScratchFiles.createTempDirectory("most-bench-streams-");
        }
        try {
            Path dir = Files.createTempDirectory(s.dir().get(), "most-bench-streams-");
            ScratchFiles.remember(dir);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory in " + s.dir().get() + ": " + e.getMessage(), e);
        }
    }
}
