package io.most.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.most.MigrationPolicy;
import io.most.Page;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.device.BlockDevice;
import io.most.device.DirectFileDevice;
import io.most.device.MemoryDevice;
import io.most.tier.TieredVolume;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class MostAutoConfigurationTest {
    @TempDir
    Path dir;

    @Test
    void storeInADirectoryGetsItsDataFileAndSizes() {
        Path data = dir.resolve("data");
        Runners.most().withPropertyValues("most.store.directory=" + data, "most.store.device-size=8MB",
                "most.store.page-size=8KB", "most.store.dram=512KB").run(context -> {
            PageStore store = context.getBean(PageStore.class);
            assertThat(store.pageSize()).isEqualTo(8192);
            assertThat(store.pageCapacity()).isPositive().isLessThanOrEqualTo((8L << 20) / 8192);
            assertThat(context.getBean(BlockDevice.class)).isInstanceOf(DirectFileDevice.class);
            assertThat(Files.size(data.resolve("most.dev"))).isEqualTo(8L << 20);
            assertThat(context).doesNotHaveBean(TieredVolume.class);
        });
    }

    @Test
    void storeOnANamedFile() {
        Path file = dir.resolve("store.bin");
        Runners.most().withPropertyValues("most.store.file=" + file, "most.store.device-size=4MB",
                "most.store.page-size=4KB", "most.store.dram=256KB").run(context -> {
            assertThat(context).hasSingleBean(PageStore.class);
            assertThat(((DirectFileDevice) context.getBean(BlockDevice.class)).path()).isEqualTo(file);
        });
    }

    @Test
    void migrationPolicyIsTheNamedPreset() {
        Runners.smallStore(dir).withPropertyValues("most.store.policy=hymem")
                .run(context -> assertThat(context.getBean(PageStore.class).policy()).isEqualTo(MigrationPolicy.hymem()));
    }

    @Test
    void adaptiveStoreStartsFromThePreset() {
        Runners.smallStore(dir).withPropertyValues("most.store.policy=eager", "most.store.adaptive=true",
                        "most.store.tuning-epoch=1h")
                .run(context -> assertThat(context.getBean(PageStore.class).policy()).isEqualTo(MigrationPolicy.eager()));
    }

    @Test
    void persistentMemoryTierUsesItsFile() {
        Path pm = dir.resolve("pm/most.pm");
        Runners.smallStore(dir).withPropertyValues("most.store.pm.path=" + pm, "most.store.pm.size=128KB")
                .run(context -> {
                    PageStore store = context.getBean(PageStore.class);
                    long id = store.allocate();
                    try (Page page = store.write(id)) {
                        page.payload().set(ValueLayout.JAVA_LONG, 0, 7);
                        page.markDirty(1);
                    }
                    store.flush(); // the dirty DRAM page is written back into PM under the lazy policy (Nw = 1)
                    // the configured bytes (superblock and 31 frames of 4 KiB), then the delta-frame
                    // descriptors of those frames, 64 bytes each, in one more page
                    assertThat(Files.size(pm)).isEqualTo((128L << 10) + (4L << 10));
                    assertThat(store.stats().pmWrites()).isPositive();
                });
    }

    @Test
    void tieredVolumeBecomesTheStoresBlockDevice() {
        Runners.volumeStore(dir.resolve("volume")).withPropertyValues("most.volume.placement-policy=hemem").run(context -> {
            TieredVolume volume = context.getBean(TieredVolume.class);
            assertThat(volume.segmentSize()).isEqualTo(256 << 10);
            assertThat(volume.tierStats().policy()).containsIgnoringCase("hemem");
            assertThat(context).hasSingleBean(BlockDevice.class); // the volume: no data file of the store's own
            assertThat(context.getBean(PageStore.class).pageCapacity() * 4096).isLessThanOrEqualTo(volume.capacity());
        });
    }

    @Test
    void backsOffWhenTheApplicationDefinesAPageStore() {
        Runners.most().withUserConfiguration(OwnStore.class).run(context -> {
            assertThat(context).hasSingleBean(PageStore.class).hasBean("ownStore").doesNotHaveBean("mostPageStore")
                    .doesNotHaveBean("mostBlockDevice");
            // health and metrics still describe the application's store
            assertThat(context).hasBean("mostHealthIndicator").hasBean("mostPageStoreMetrics");
        });
    }

    @Test
    void storeUsesTheApplicationsBlockDevice() {
        Runners.most().withPropertyValues("most.store.page-size=4KB", "most.store.dram=256KB")
                .withUserConfiguration(OwnDevice.class).run(context -> {
                    assertThat(context).hasSingleBean(BlockDevice.class).doesNotHaveBean("mostBlockDevice");
                    assertThat(context.getBean(PageStore.class).pageCapacity()).isLessThanOrEqualTo(256);
                });
    }

    @Test
    void noStoreWithoutADirectoryOrFile() {
        Runners.most().run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(PageStore.class)
                .doesNotHaveBean(BlockDevice.class).doesNotHaveBean("mostHealthIndicator"));
    }

    @Test
    void nothingIsConfiguredWithoutMostCore() {
        Runners.most().withClassLoader(new org.springframework.boot.test.context.FilteredClassLoader(PageStore.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(MostProperties.class)
                        .doesNotHaveBean("mostPageStore"));
    }

    @Test
    void shutdownCheckpointsTheStore() {
        long[] id = new long[1];
        Runners.smallStore(dir).run(context -> {
            PageStore store = context.getBean(PageStore.class);
            id[0] = store.allocate();
            try (Page page = store.write(id[0])) {
                page.payload().set(ValueLayout.JAVA_LONG, 0, 0x5EED_CAFEL);
                page.markDirty(1);
            }
            assertThat(store.stats().dirtyPages()).isPositive();
        }); // the runner closes the context here
        try (PageStore reopened = PageStore.open(PageStoreConfig.builder().pageSize(4096).dramBytes(256 << 10)
                .blockDevice(DirectFileDevice.open(dir.resolve("most.dev"), 4L << 20)).build())) {
            assertThat(reopened.isAllocated(id[0])).isTrue();
            long value = reopened.readOptimistic(id[0], p -> p.get(ValueLayout.JAVA_LONG, 0));
            assertThat(value).isEqualTo(0x5EED_CAFEL);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnStore {
        @Bean(destroyMethod = "close")
        PageStore ownStore() {
            return PageStore.open(PageStoreConfig.builder().pageSize(4096).dramBytes(64 << 10)
                    .blockDevice(new MemoryDevice(1L << 20)).build());
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnDevice {
        @Bean(destroyMethod = "close")
        BlockDevice ownDevice() {
            return new MemoryDevice(1L << 20);
        }
    }
}
