package io.most.examples.cacheserver;

import io.most.Sizes;
import io.netty.util.ResourceLeakDetector;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The command line of the server: {@code java -jar most-cache-server.jar --dir DATA [options]}. Every
 * option can also come from a properties file ({@code --config FILE}, keys are the long option names
 * without dashes: {@code port=6380}); the command line wins. Runs until SIGTERM, Ctrl-C or
 * {@code SHUTDOWN}, then closes cleanly (see {@link CacheServer#close}).
 */
@Command(name = "most-cache-server", mixinStandardHelpOptions = true, sortOptions = false,
        description = "A Redis-protocol (RESP2) cache server on the MOST hybrid cache (DRAM, PM, flash).")
public final class CacheServerMain implements Callable<Integer> {

    @Option(names = "--config", paramLabel = "FILE",
            description = "Properties file with defaults for these options (keys: long names without dashes).")
    File config;

    @Option(names = "--bind", defaultValue = "127.0.0.1", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    String bind;

    @Option(names = "--port", defaultValue = "6379", description = "TCP port, 0 for any free one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--dir", required = true, paramLabel = "DIR",
            description = "Data directory of the cache; a restart on the same directory is a warm start.")
    Path dir;

    @Option(names = "--dram", defaultValue = "64m", converter = SizeConverter.class,
            description = "DRAM budget: bucket-page frames in memory (default: ${DEFAULT-VALUE}).")
    long dram;

    @Option(names = "--pm", defaultValue = "0", converter = SizeConverter.class,
            description = "Persistent memory for bucket pages, a mapped file in DIR; 0 for none (default: ${DEFAULT-VALUE}).")
    long pm;

    @Option(names = "--ssd", defaultValue = "256m", converter = SizeConverter.class,
            description = "Flash for small items: bucket pages in DIR (default: ${DEFAULT-VALUE}).")
    long ssd;

    @Option(names = "--performance", paramLabel = "FILE:SIZE",
            description = "With --capacity: the cache's flash on a MOST tiered volume, this O_DIRECT file its"
                    + " performance device (e.g. /optane/most.perf:4g).")
    String performance;

    @Option(names = "--capacity", paramLabel = "FILE:SIZE",
            description = "With --performance: the tiered volume's capacity device (e.g. /nvme/most.cap:32g).")
    String capacity;

    @Option(names = "--placement-policy", paramLabel = "NAME",
            description = "The tiered volume's placement policy (default: most; also striping, orthus, hemem,"
                    + " colloid, ...).")
    String placementPolicy;

    @Option(names = "--dirty-ratio", defaultValue = "0.5",
            description = "Share of the DRAM bucket pages allowed dirty before they are written back to flash, in"
                    + " (0, 1] (default: ${DEFAULT-VALUE}).")
    double dirtyRatio;

    @Option(names = "--regions", defaultValue = "256m", converter = SizeConverter.class,
            description = "Flash for large values: log-structured regions in DIR, 0 for none (default: ${DEFAULT-VALUE}).")
    long regions;

    @Option(names = "--threads", description = "Event loop threads (default: the number of cores).")
    Integer threads;

    @Option(names = "--max-clients", defaultValue = "10000", description = "Connections at once (default: ${DEFAULT-VALUE}).")
    int maxClients;

    @Option(names = "--timeout", defaultValue = "0",
            description = "Close a client idle this many seconds, 0 for never (default: ${DEFAULT-VALUE}).")
    long timeoutSeconds;

    @Option(names = "--max-bulk", defaultValue = "64m", converter = SizeConverter.class,
            description = "Longest argument of a request (default: ${DEFAULT-VALUE}).")
    long maxBulk;

    @Option(names = "--max-args", defaultValue = "1048576", description = "Most arguments of a request (default: ${DEFAULT-VALUE}).")
    int maxArgs;

    @Option(names = "--max-request", defaultValue = "128m", converter = SizeConverter.class,
            description = "Most bytes of arguments of one request (default: ${DEFAULT-VALUE}).")
    long maxRequest;

    @Option(names = "--requirepass", paramLabel = "PASSWORD",
            description = "Password of the default user (Redis's requirepass); not with --aclfile.")
    String requirePass;

    @Option(names = "--aclfile", paramLabel = "FILE",
            description = "Redis ACL file of the users (user NAME on >pass ~prefix:* +@read ...).")
    Path aclFile;

    @Option(names = "--protected-mode", defaultValue = "yes", paramLabel = "yes|no",
            description = "While the default user has no password, refuse clients from beyond loopback"
                    + " (default: ${DEFAULT-VALUE}).")
    String protectedMode;

    @Option(names = "--tls-port", paramLabel = "N", description = "Also listen for TLS on this port (0: any free one).")
    Integer tlsPort;

    @Option(names = "--tls-cert-file", paramLabel = "FILE", description = "Server certificate chain (PEM).")
    Path tlsCert;

    @Option(names = "--tls-key-file", paramLabel = "FILE",
            description = "Server private key (PEM, PKCS#8, unencrypted).")
    Path tlsKey;

    @Option(names = "--tls-ca-cert-file", paramLabel = "FILE", description = "CA of client certificates (PEM).")
    Path tlsCa;

    @Option(names = "--tls-auth-clients", defaultValue = "yes", paramLabel = "yes|no|optional",
            description = "Require a client certificate signed by the CA; optional or no: check one if given"
                    + " (default: ${DEFAULT-VALUE}).")
    String tlsAuthClients;

    @Option(names = "--tenant", paramLabel = "USER:key=value,...", split = ";",
            description = "Serve ACL user USER from a cache of its own on the shared devices (repeatable; in a"
                    + " --config file: tenant=a:...;b:...). Keys: dram, pm, ssd, regions (sizes), weight, limit.")
    List<String> tenants;

    @Option(names = "--sharing-policy", defaultValue = "none", paramLabel = "POLICY",
            description = "How tenants share PM and flash: none, limit, proportional, fair, qos:USER:P99"
                    + " (default: ${DEFAULT-VALUE}).")
    String sharingPolicy;

    @Option(names = "--pm-profile", defaultValue = "none", paramLabel = "NAME",
            description = "PM model tenants' PM accesses pay through and are charged by (none: not accounted;"
                    + " default: ${DEFAULT-VALUE}).")
    String pmProfile;

    @Option(names = "--device-profile", defaultValue = "nvme-pcie4", paramLabel = "NAME",
            description = "Flash profile whose 1/MaxIOPS costs tenants' flash accesses are charged by"
                    + " (default: ${DEFAULT-VALUE}).")
    String deviceProfile;

    @Override
    public Integer call() throws InterruptedException {
        ServerSettings.Builder b = ServerSettings.builder(dir)
                .bind(bind).port(port).dramBytes(dram).pmBytes(pm).ssdBytes(ssd).regionBytes(regions)
                .dirtyRatio(dirtyRatio)
                .maxClients(maxClients).idleTimeout(Duration.ofSeconds(timeoutSeconds))
                .maxBulkBytes(Math.toIntExact(maxBulk)).maxArrayLength(maxArgs).maxRequestBytes(maxRequest);
        if (threads != null) {
            b.threads(threads);
        }
        b.security(security());
        b.sharing(sharing());
        if (placementPolicy != null && performance == null && capacity == null) {
            throw new IllegalArgumentException("--placement-policy needs a tiered volume: --performance FILE:SIZE and"
                    + " --capacity FILE:SIZE");
        }
        b.volume(VolumeSettings.of(performance, capacity, placementPolicy));
        ServerSettings settings = b.build();
        CacheServer server = CacheServer.start(settings);
        // SIGTERM and Ctrl-C: the same graceful close as SHUTDOWN; the JVM exits when the hook returns, so
        // the hook reports the stop itself
        java.util.concurrent.atomic.AtomicBoolean reported = new java.util.concurrent.atomic.AtomicBoolean();
        Runnable stopped = () -> {
            if (reported.compareAndSet(false, true)) {
                System.out.println("MOST cache server stopped; the cache is flushed and closed");
                System.out.flush();
            }
        };
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.run();
        }, "most-sigterm"));
        System.out.printf(Locale.ROOT, "MOST cache server listening on %s:%d (data %s, DRAM %s, PM %s, SSD %s, regions %s%s)%n",
                server.address().getHostString(), server.address().getPort(), dir.toAbsolutePath(),
                Sizes.format(dram), Sizes.format(pm), Sizes.format(ssd),
                Sizes.format(regions), settings.volume() == null ? "" : ", on a tiered volume of "
                        + settings.volume().performanceFile() + " and " + settings.volume().capacityFile() + " ("
                        + settings.volume().placementPolicy() + ")");
        System.out.flush();
        server.awaitTermination();
        stopped.run();
        return 0;
    }

    /** The tenants and sharing policy the options give. */
    SharingSettings sharing() {
        List<TenantSettings> list = new java.util.ArrayList<>();
        if (tenants != null) {
            for (String t : tenants) {
                if (!t.isBlank()) {
                    list.add(TenantSettings.parse(t.trim()));
                }
            }
        }
        return new SharingSettings(list, sharingPolicy, pmProfile, deviceProfile);
    }

    private SecuritySettings security() {
        SecuritySettings security = new SecuritySettings(requirePass, aclFile, yesNo("--protected-mode", protectedMode),
                null);
        if (tlsPort != null) {
            boolean authClients = !tlsAuthClients.equalsIgnoreCase("optional")
                    && yesNo("--tls-auth-clients", tlsAuthClients);
            security = security.withTls(new TlsSettings(tlsPort, tlsCert, tlsKey, tlsCa, authClients));
        } else if (tlsCert != null || tlsKey != null || tlsCa != null) {
            throw new IllegalArgumentException("--tls-cert-file, --tls-key-file and --tls-ca-cert-file need --tls-port");
        }
        return security;
    }

    private static boolean yesNo(String option, String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "yes" -> true;
            case "no" -> false;
            default -> throw new IllegalArgumentException(option + " '" + value + "': write yes or no");
        };
    }

    /** Entry point of the executable jar. */
    public static void main(String[] args) {
        // Netty samples buffers for leak tracking by default (a stack trace per sample, on every read
        // path): the tests keep it, the server runs without unless asked (-Dio.netty.leakDetection.level)
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
        CommandLine cli = new CommandLine(new CacheServerMain());
        File properties = configFile(args);
        if (properties != null) {
            cli.setDefaultValueProvider(new CommandLine.PropertiesDefaultProvider(properties));
        }
        cli.setExecutionExceptionHandler((e, line, parsed) -> {
            line.getErr().println("most-cache-server: " + e.getMessage());
            return 2;
        });
        System.exit(cli.execute(args));
    }

    /** The --config file, read before parsing because it supplies the defaults of the other options. */
    private static File configFile(String[] args) {
        List<String> list = List.of(args);
        for (int i = 0; i < list.size(); i++) {
            String a = list.get(i);
            if (a.equals("--config") && i + 1 < list.size()) {
                return new File(list.get(i + 1));
            }
            if (a.startsWith("--config=")) {
                return new File(a.substring("--config=".length()));
            }
        }
        return null;
    }

    /** Sizes as {@code 123}, {@code 64k}, {@code 64m}, {@code 2g} (binary units): {@link Sizes#parse}. */
    static final class SizeConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return Sizes.parse(value);
            } catch (Sizes.InvalidSizeException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
