package io.most.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.bench.report.MiniJson;
import io.most.bench.sharing.TenantMix;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code run --workload nyx-share}: a forked, repeated comparison of two modes (the method every
 * reproduction uses), the Twitter mixes by name, and every bad option named with what is valid.
 */
class SharingRunTest {
    private static final List<String> BASE = List.of("run", "--workload", "nyx-share", "--warmup", "100ms",
            "--duration", "300ms", "--interval", "20ms", "--size", "64k");

    @Test
    void forkedRepeatedModesReportMediansPerTenant() {
        Cli cli = Cli.runAsGiven("run", "--workload", "nyx-share", "--tenants", "a=get-256/threads=1,b=write-1k",
                "--policies", "off,none", "--warmup", "100ms", "--duration", "300ms", "--interval", "20ms",
                "--size", "64k", "--repeat", "2", "--load-wait", "0s", "--json", "-");
        assertEquals(0, cli.exitCode(), cli.err());
        Map<String, Object> root = MiniJson.object(MiniJson.parse(cli.out()));
        assertEquals(2.0, MiniJson.object(root.get("method")).get("repeat"));
        List<Map<String, Object>> runs = MiniJson.array(root.get("runs")).stream().map(MiniJson::object).toList();
        assertEquals(List.of("off", "none"), runs.stream().map(r -> r.get("policy")).toList());
        for (Map<String, Object> run : runs) {
            assertEquals(2, MiniJson.array(run.get("repetitions")).size(), "each mode twice, each in its own JVM");
            assertTrue((Double) run.get("t_a_ops_s") > 0 && (Double) run.get("t_b_ops_s") > 0, run.toString());
        }
        assertTrue(cli.err().contains("tenant"), "the table goes to stderr with --json -: " + cli.err());
    }

    @Test
    void theTwitterTracesAreNamedMixes() {
        assertEquals(List.of("twitter-s1", "twitter-c1", "twitter-c2"), TenantMix.twitter().stream()
                .map(TenantMix::name).toList());
        TenantMix s1 = TenantMix.parse("twitter-s1");
        assertEquals(36, s1.keyBytes());
        assertEquals(799, s1.valueBytes());
        assertEquals(0.86 / 0.99, s1.getShare(), 1e-9, "Table 5.3's get/write shares, normalised to the two");
        assertEquals(67485, TenantMix.parse("twitter-c2").valueBytes());
        assertEquals(0.25, TenantMix.parse("mix-25-4k").getShare());
        assertEquals(4096, TenantMix.parse("mix-25-4k").valueBytes());
    }

    @Test
    void badOptionsAreNamed() {
        usage("no tenants", List.of("--policies", "none"), List.of("--tenants"));
        usage("a bad mix", List.of("--tenants", "a=get-huge"), List.of("unknown tenant mix 'get-huge'", "twitter-s1"));
        usage("a bad tenant option", List.of("--tenants", "a=get-64/speed=3"), List.of("unknown option 'speed'",
                "threads"));
        usage("a tenant twice", List.of("--tenants", "a=get-64,a=get-256"), List.of("twice"));
        usage("a bad name", List.of("--tenants", "A-1=get-64"), List.of("tenant name 'A-1'"));
        usage("an unknown mode", List.of("--tenants", "a=get-64", "--policies", "stride"),
                List.of("unknown sharing mode 'stride'", "bandwidth-limit", "qos:NAME:TARGET"));
        usage("qos for a stranger", List.of("--tenants", "a=get-64", "--policies", "qos:zz:1ms"),
                List.of("'zz'", "not one of --tenants"));
        usage("a bad target", List.of("--tenants", "a=get-64", "--policies", "qos:a:soon"), List.of("'soon'", "1.5x"));
        usage("a limit nobody has", List.of("--tenants", "a=get-64", "--policies", "limit"), List.of("/limit=X"));
        usage("a limit out of range", List.of("--tenants", "a=get-64/limit=1.5"), List.of("(0, 1]"));
        usage("a burst after the window", List.of("--tenants", "a=get-64/burst=5s"),
                List.of("burst=", "measured window"));
        usage("an option of other workloads", List.of("--tenants", "a=get-64", "--hierarchy", "memory"),
                List.of("--hierarchy does not apply to nyx-share"));
        usage("an unknown PM model", List.of("--tenants", "a=get-64", "--pm-profile", "profile:x.properties"),
                List.of("--pm-profile", "optane-pm-2dimm"));
        usage("a scale below the papers'", List.of("--tenants", "a=get-64", "--scale", "0.5"), List.of("--scale"));
    }

    private static void usage(String what, List<String> extra, List<String> mustMention) {
        List<String> args = new java.util.ArrayList<>(BASE);
        args.addAll(extra);
        Cli.assertUsageError(what, args, mustMention);
    }
}
