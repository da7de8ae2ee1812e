package io.most.bench.fork;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.bench.BenchException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import org.junit.jupiter.api.Test;

class ForkedJvmTest {
    @Test
    void childKeepsTheParentsFlagsWithoutADebugger() {
        List<String> flags = ForkedJvm.jvmFlags(List.of("-Xmx2g", "--enable-native-access=ALL-UNNAMED",
                "-agentlib:jdwp=transport=dt_socket,server=y,address=5005", "-XX:+UseParallelGC"), 1L << 30, false);
        assertEquals(List.of("-Xmx2g", "--enable-native-access=ALL-UNNAMED", "-XX:+UseParallelGC"), flags);
    }

    @Test
    void childGetsNativeAccessAndTheHeapWhenNoFlagSaidSo() {
        // a 'java -jar' parent has native access from the jar's manifest, which '-cp' does not read
        List<String> flags = ForkedJvm.jvmFlags(List.of(), 3L << 30, false);
        assertEquals(List.of("--enable-native-access=ALL-UNNAMED", "-Xmx3072m"), flags);
    }

    @Test
    void aHeapChosenForTheChildrenReplacesTheParentsHeapFlags() {
        List<String> flags = ForkedJvm.jvmFlags(List.of("-Xmx8g", "-XX:MaxRAMPercentage=50", "-XX:+UseG1GC",
                "--enable-native-access=ALL-UNNAMED"), 320L << 20, true);
        assertEquals(List.of("-XX:+UseG1GC", "--enable-native-access=ALL-UNNAMED", "-Xmx320m"), flags);
    }

    @Test
    void commandIsThisJavaAndClassPath() {
        List<String> command = new ForkedJvm("io.most.bench.cli.Main").command(List.of("run", "--fork", "0"));
        assertTrue(command.getFirst().endsWith("java"), command.getFirst());
        int cp = command.indexOf("-cp");
        assertEquals(System.getProperty("java.class.path"), command.get(cp + 1));
        assertEquals(List.of("io.most.bench.cli.Main", "run", "--fork", "0"), command.subList(cp + 2, command.size()));
    }

    @Test
    void childStderrPassesThroughLessTheJsonHandOverLine() throws Exception {
        String child = "note: warming up\n\rprogress 1\rprogress 2\r  \rwrote /tmp/x.json\nwrote /data/chart.png\ntail";
        var out = new ByteArrayOutputStream();
        ForkedJvm.passThrough(new ByteArrayInputStream(child.getBytes(UTF_8)),
                new PrintStream(out, true, UTF_8), "wrote /tmp/x.json");
        assertEquals("note: warming up\n\rprogress 1\rprogress 2\r  \rwrote /data/chart.png\ntail",
                out.toString(UTF_8));
    }

    @Test
    void readsTheChildsOneRun() {
        assertEquals(12.5, ForkedJvm.onlyRun("{\"machine\": {}, \"runs\": [{\"engine\": \"most\", \"throughput_ops\":"
                + " 12.5}]}").number("throughput_ops"));
        assertThrows(BenchException.class, () -> ForkedJvm.onlyRun("{\"runs\": []}"));
        assertThrows(BenchException.class, () -> ForkedJvm.onlyRun("{\"runs\": [{}, {}]}"));
    }
}
