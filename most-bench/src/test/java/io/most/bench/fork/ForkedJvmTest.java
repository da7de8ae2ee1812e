package io.most.bench.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.bench.BenchException;
import java.util.List;
import org.junit.jupiter.api.Test;

class ForkedJvmTest {
    @Test
    void childKeepsTheParentsFlagsWithoutADebugger() {
        List<String> flags = ForkedJvm.jvmFlags(List.of("-Xmx2g", "--enable-native-access=ALL-UNNAMED",
                "-agentlib:jdwp=transport=dt_socket,server=y,address=5005", "-XX:+UseParallelGC"), 1L << 30);
        assertEquals(List.of("-Xmx2g", "--enable-native-access=ALL-UNNAMED", "-XX:+UseParallelGC"), flags);
    }

    @Test
    void childGetsNativeAccessAndTheHeapWhenNoFlagSaidSo() {
        // a 'java -jar' parent has native access from the jar's manifest, which '-cp' does not read
        List<String> flags = ForkedJvm.jvmFlags(List.of(), 3L << 30);
        assertEquals(List.of("--enable-native-access=ALL-UNNAMED", "-Xmx3072m"), flags);
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
    void readsTheChildsOneRun() {
        assertEquals(12.5, ForkedJvm.onlyRun("{\"machine\": {}, \"runs\": [{\"engine\": \"most\", \"throughput_ops\":"
                + " 12.5}]}").number("throughput_ops"));
        assertThrows(BenchException.class, () -> ForkedJvm.onlyRun("{\"runs\": []}"));
        assertThrows(BenchException.class, () -> ForkedJvm.onlyRun("{\"runs\": [{}, {}]}"));
    }
}
