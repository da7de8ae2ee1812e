package io.most.bench.streams;

import io.most.bench.Units;
import io.most.bench.driver.Latencies;
import io.most.bench.driver.RunResult;
import io.most.bench.report.Json;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;

/**
 * The Kafka Streams application of the benchmark, in a JVM of its own (started by {@link StreamsBench}
 * with {@link AppArgs}): builds the workload's topology on the engine's stores, processes the input,
 * writes its JSON report and prints one line to stdout, then keeps processing until it is killed.
 * In {@code measure} mode the report covers the measured window and the line is {@code measured}; in
 * {@code restart} mode (after a kill -9, same application id and state directory) it covers the first
 * record processed and what was restored, and the line is {@code first}. A failure prints
 * {@code failed <reason>} and exits with 1.
 */
public final class StreamsAppMain {
    /** How long a mode waits for its event before it gives up (the coordinator's own deadline is shorter). */
    private static final long WAIT_MILLIS = 6 * 3600_000L;

    private StreamsAppMain() {
    }

    public static void main(String[] args) throws Exception {
        AppArgs app = AppArgs.parse(args);
        StreamsSettings s = app.settings();
        MemorySampler sampler = MemorySampler.start();
        Map<String, Object> report = new LinkedHashMap<>();
        long[] io = new long[4];
        ProcessTimer timer = new ProcessTimer(s.keys(), s.measured(), new ProcessTimer.Events() {
            @Override
            public void measuredStarted() {
                io[0] = ProcSelf.writeBytes().orElse(-1);
                io[1] = ProcSelf.readBytes().orElse(-1);
                sampler.windowStarted();
            }

            @Override
            public void measuredDone() {
                io[2] = ProcSelf.writeBytes().orElse(-1);
                io[3] = ProcSelf.readBytes().orElse(-1);
                sampler.windowEnded();
            }
        });
        StreamsBuilder builder = new StreamsBuilder();
        s.workload().build(builder, app.input(), app.output(), timer);
        KafkaStreams streams = new KafkaStreams(builder.build(), properties(app));
        RestoreCounter restores = new RestoreCounter();
        streams.setGlobalStateRestoreListener(restores);
        streams.setUncaughtExceptionHandler(e -> fail(e));
        // the JVM with Kafka Streams' classes and clients created, before any task or store exists
        long rssBase = ProcSelf.rssBytes().orElse(0);
        streams.start();
        if (app.restart()) {
            if (!timer.awaitFirst(WAIT_MILLIS)) {
                fail(new IllegalStateException("no record processed after the restart"));
            }
            report.put("first_record_epoch_ms", timer.firstRecordMillis());
            report.put("jvm_start_epoch_ms", ManagementFactory.getRuntimeMXBean().getStartTime());
            report.put("restored_records", restores.restored());
            report.put("restore_s", Units.round(restores.restoreSeconds(), 3));
            write(app.report(), report);
            System.out.println("first");
        } else {
            if (!timer.awaitMeasured(WAIT_MILLIS)) {
                fail(new IllegalStateException("the measured window did not end"));
            }
            measured(report, s, timer, sampler, rssBase, io, restores);
            write(app.report(), report);
            System.out.println("measured");
        }
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE); // processing goes on until the coordinator kills this JVM
    }

    private static void measured(Map<String, Object> r, StreamsSettings s, ProcessTimer timer, MemorySampler sampler,
                                 long rssBase, long[] io, RestoreCounter restores) {
        double window = timer.windowNanos() / 1e9;
        Latencies lat = timer.latencies();
        r.put("loaded_records", timer.loadedCount());
        r.put("measured_records", timer.measuredCount());
        r.put("load_s", Units.round(timer.loadNanos() / 1e9, 3));
        r.put("load_records_s", Units.round(timer.loadNanos() == 0 ? Double.NaN : s.keys() / (timer.loadNanos() / 1e9), 1));
        r.put("window_s", Units.round(window, 3));
        r.put("throughput_ops", Units.round(s.measured() / window, 1));
        r.put("mean_us", Units.round(lat.meanNanos() / 1e3, 1));
        r.put("p50_us", Units.round(lat.percentileNanos(0.50) / 1e3, 1));
        r.put("p99_us", Units.round(lat.percentileNanos(0.99) / 1e3, 1));
        r.put("p999_us", Units.round(lat.percentileNanos(0.999) / 1e3, 1));
        r.put("latency_samples", lat.count());
        r.put("rss_base_bytes", rssBase);
        r.put("rss_max_bytes", sampler.max());
        r.put("rss_window_max_bytes", sampler.windowMax());
        r.put("rss_window_mean_bytes", sampler.windowMean());
        r.put("heap_committed_bytes", Runtime.getRuntime().totalMemory());
        r.put("disk_write_bytes", io[0] < 0 || io[2] < 0 ? Double.NaN : io[2] - io[0]);
        r.put("disk_read_bytes", io[1] < 0 || io[3] < 0 ? Double.NaN : io[3] - io[1]);
        r.put("disk_write_bytes_per_record", io[0] < 0 || io[2] < 0 ? Double.NaN
                : Units.round((double) (io[2] - io[0]) / s.measured(), 1));
        OptionalLong total = ProcSelf.writeBytes();
        r.put("disk_write_bytes_total", total.isPresent() ? total.getAsLong() : Double.NaN);
        r.put("restored_records_at_start", restores.restored());
    }

    static Properties properties(AppArgs app) {
        StreamsSettings s = app.settings();
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, app.applicationId());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, app.bootstrap());
        p.put(StreamsConfig.STATE_DIR_CONFIG, app.stateDir().toString());
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, s.threads());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, s.guarantee());
        p.put(StreamsConfig.TRANSACTIONAL_STATE_STORES_CONFIG, s.transactionalStores());
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        // every record reaches the store (and the timer's second mark) at once: the record cache would
        // absorb updates of hot keys and forward them at the next commit, measuring the cache, not the store
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0L);
        // static membership: the restarted instance takes the killed one's place at once instead of waiting
        // for its session to time out, so the restart time is the stores' and Kafka Streams', not a timeout's
        p.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, app.applicationId() + "-instance");
        s.engine().configure(p, s.budgetBytes(), s.partitions());
        return p;
    }

    private static StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse fail(Throwable e) {
        System.out.println("failed " + RunResult.describe(e).replace('\n', ' '));
        System.out.flush();
        Runtime.getRuntime().halt(1);
        return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
    }

    private static void write(Path file, Map<String, Object> report) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, Json.write(report), StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
