package io.most.spring.autoconfigure;

import java.nio.file.Path;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Context runners with MOST's auto-configurations and small stores in a test's directory. */
final class Runners {
    private Runners() {
    }

    /** MOST's auto-configurations, no properties. */
    static ApplicationContextRunner most() {
        return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(MostAutoConfiguration.class,
                MostHealthAutoConfiguration.class, MostMetricsAutoConfiguration.class));
    }

    /**
     * A store of 4 KiB pages with a 256 KiB DRAM pool over a tiered volume in {@code dir}: 8 MiB
     * performance device {@code perf.dev}, 16 MiB capacity device {@code cap.dev}, 256 KiB segments.
     */
    static ApplicationContextRunner volumeStore(Path dir) {
        return most().withPropertyValues("most.store.page-size=4KB", "most.store.dram=256KB",
                "most.volume.performance.file=" + dir.resolve("perf.dev"), "most.volume.performance.size=8MB",
                "most.volume.capacity.file=" + dir.resolve("cap.dev"), "most.volume.capacity.size=16MB",
                "most.volume.segment-size=256KB");
    }

    /** A 4 MiB store of 4 KiB pages with a 256 KiB DRAM pool in {@code dir}. */
    static ApplicationContextRunner smallStore(Path dir) {
        return most().withPropertyValues("most.store.directory=" + dir, "most.store.device-size=4MB",
                "most.store.page-size=4KB", "most.store.dram=256KB");
    }
}
