package io.most.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.most.errors.ConfigurationException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.context.properties.source.MutuallyExclusiveConfigurationPropertiesException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.Environment;

/** Each bad most.* setting stops the context with a failure analysis that names the property. */
class MostConfigurationFailureAnalyzerTest {
    @TempDir
    static Path dir;

    private final AtomicReference<Environment> environment = new AtomicReference<>();

    static Stream<Arguments> badStoreSettings() {
        return Stream.of(
                Arguments.of("most.store.page-size", "1000B", "must be a power of two"),
                Arguments.of("most.store.dram", "100000B", "must be a multiple of the page size"),
                Arguments.of("most.store.dram", "16KB", "at least 16 pages"),
                Arguments.of("most.store.pm.size", "20KB", "PM size"),
                Arguments.of("most.store.policy", "sometimes", "valid: eager, lazy, hymem"),
                Arguments.of("most.store.dirty-ratio", "2", "dirty ratio"),
                Arguments.of("most.store.device-size", "4097B", "multiple of the block size"));
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("badStoreSettings")
    void badStoreSettingIsNamed(String property, String value, String reason) {
        List<String> settings = new ArrayList<>(List.of("most.store.pm.path=" + dir.resolve("pm/most.pm"),
                "most.store.pm.size=256KB", property + "=" + value));
        runner(Runners.smallStore(dir.resolve(property))).withPropertyValues(settings.toArray(String[]::new))
                .run(context -> {
                    FailureAnalysis analysis = analyze(context.getStartupFailure(), environment.get());
                    assertThat(analysis.getDescription()).contains(reason)
                            .contains("Property: " + property).contains("Value: \"" + value + "\"")
                            .contains("Origin: \"" + property + "\" from property source");
                    assertThat(analysis.getAction()).startsWith("Update your application's configuration: change ")
                            .contains(property);
                });
    }

    @Test
    void zeroTuningEpochOfAnAdaptiveStoreIsNamed() {
        runner(Runners.smallStore(dir.resolve("epoch"))).withPropertyValues("most.store.adaptive=true",
                "most.store.tuning-epoch=0s").run(context -> assertThat(analyze(context.getStartupFailure(),
                        environment.get()).getAction()).contains("change most.store.tuning-epoch"));
    }

    @Test
    void directoryThatCannotBeCreatedIsNamed() throws Exception {
        Path blocker = Files.writeString(dir.resolve("a-file"), "not a directory");
        runner(Runners.smallStore(blocker.resolve("sub"))).run(context -> {
            FailureAnalysis analysis = analyze(context.getStartupFailure(), environment.get());
            assertThat(analysis.getDescription()).contains("cannot create the directory");
            assertThat(analysis.getAction()).contains("change most.store.directory as");
        });
    }

    @Test
    void directoryAndFileTogetherAreRejectedByBoot() {
        runner(Runners.smallStore(dir.resolve("both"))).withPropertyValues("most.store.file=" + dir.resolve("x.dev"))
                .run(context -> assertThat(context.getStartupFailure()).rootCause()
                        .isInstanceOf(MutuallyExclusiveConfigurationPropertiesException.class)
                        .hasMessageContaining("most.store.directory").hasMessageContaining("most.store.file"));
    }

    static Stream<Arguments> badVolumeSettings() {
        return Stream.of(
                Arguments.of("most.volume.placement-policy=fastest", "most.volume.placement-policy",
                        "unknown placement policy 'fastest'"),
                Arguments.of("most.volume.segment-size=3MB", "most.volume.segment-size", "segment size"),
                Arguments.of("most.volume.capacity.file=", "most.volume.capacity.file", "is not set"),
                Arguments.of("most.volume.capacity.size=", "most.volume.capacity.size", "is not set"),
                Arguments.of("most.volume.performance.size=1MB", "most.volume.performance.size", "performance device 'perf.dev' of 1048576 bytes is too small"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badVolumeSettings")
    void badVolumeSettingIsNamed(String setting, String property, String reason) {
        Path volumeDir = dir.resolve("volume-" + Math.abs(setting.hashCode()));
        runner(Runners.most()).withPropertyValues("most.volume.performance.file=" + volumeDir.resolve("perf.dev"),
                "most.volume.performance.size=32MB", "most.volume.capacity.file=" + volumeDir.resolve("cap.dev"),
                "most.volume.capacity.size=32MB", setting).run(context -> {
            FailureAnalysis analysis = analyze(context.getStartupFailure(), environment.get());
            assertThat(analysis.getDescription()).containsIgnoringCase(reason).contains("Property: " + property);
            assertThat(analysis.getAction()).contains("change " + property);
        });
    }

    @Test
    void configurationExceptionOfTheApplicationsOwnStoreIsReported() {
        ConfigurationException own = new ConfigurationException("page size 1000 must be a power of two");
        FailureAnalysis analysis = new MostConfigurationFailureAnalyzer(null)
                .analyze(new IllegalStateException("bean creation failed", own));
        assertThat(analysis.getDescription()).isEqualTo("MOST rejected its configuration: " + own.getMessage());
        assertThat(analysis.getAction()).contains("code that builds the PageStore");
    }

    /** Keeps the context's environment, which a failed context no longer hands out. */
    private ApplicationContextRunner runner(ApplicationContextRunner runner) {
        return runner.withInitializer(context -> environment.set(context.getEnvironment()));
    }

    private static FailureAnalysis analyze(Throwable failure, Environment environment) {
        assertThat(failure).as("the context must fail to start").isNotNull();
        FailureAnalysis analysis = new MostConfigurationFailureAnalyzer(environment).analyze(failure);
        assertThat(analysis).as("analysis of %s", failure).isNotNull();
        return analysis;
    }
}
