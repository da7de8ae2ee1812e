package io.most.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

/**
 * A real application start: the analyzer is found through spring.factories and Boot prints its
 * "APPLICATION FAILED TO START" report; property binding errors get Boot's own report, which also
 * names the property.
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupFailureReportTest {
    @TempDir
    Path dir;

    @Test
    void mostRejectionIsReportedWithThePropertyToChange(CapturedOutput output) {
        assertThatThrownBy(() -> start("--most.store.directory=" + dir, "--most.store.device-size=4MB",
                "--most.store.page-size=4KB", "--most.store.dram=20KB")).isNotNull();
        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("MOST rejected its configuration: DRAM pool of 20480 bytes must be a multiple of the page size")
                .contains("Property: most.store.dram").contains("Value: \"20KB\"")
                .contains("Origin: \"most.store.dram\" from property source \"commandLineArgs\"")
                .contains("Update your application's configuration: change most.store.dram");
    }

    @Test
    void bindingErrorIsReportedByBootNamingTheProperty(CapturedOutput output) {
        assertThatThrownBy(() -> start("--most.store.directory=" + dir, "--most.store.dram=lots")).isNotNull();
        assertThat(output).contains("APPLICATION FAILED TO START").contains("most.store.dram")
                .contains("Failed to bind properties under 'most.store.dram'");
    }

    private static void start(String... args) {
        SpringApplication application = new SpringApplication(App.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.run(args).close();
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(MostAutoConfiguration.class)
    static class App {
    }
}
