package io.most.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.most.tier.policy.PlacementPolicies;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataProperty;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataRepositoryJsonBuilder;
import org.springframework.boot.configurationmetadata.ValueHint;

/** The metadata IDEs read: every most.* property explained, defaults given, policies completed. */
class ConfigurationMetadataTest {
    /**
     * Properties without a default: paths, the volume's device sizes (which must be chosen), the cache
     * names and per-cache overrides (none), and the lifetimes (none: entries live until evicted).
     */
    private static final Set<String> NO_DEFAULT = Set.of("most.store.directory", "most.store.file",
            "most.store.pm.path", "most.volume.performance.file", "most.volume.performance.size",
            "most.volume.capacity.file", "most.volume.capacity.size", "most.cache.directory", "most.cache.names",
            "most.cache.caches", "most.cache.time-to-live", "most.cache.time-to-idle",
            "most.cache.volume.performance.file", "most.cache.volume.performance.size",
            "most.cache.volume.capacity.file", "most.cache.volume.capacity.size");

    private static Map<String, ConfigurationMetadataProperty> properties() throws Exception {
        ConfigurationMetadataRepositoryJsonBuilder builder = ConfigurationMetadataRepositoryJsonBuilder.create();
        for (String resource : List.of("META-INF/spring-configuration-metadata.json",
                "META-INF/additional-spring-configuration-metadata.json")) {
            try (InputStream in = ConfigurationMetadataTest.class.getClassLoader().getResourceAsStream(resource)) {
                assertThat(in).as(resource).isNotNull();
                builder.withJsonResource(in);
            }
        }
        return builder.build().getAllProperties();
    }

    @Test
    void everyPropertyHasADescriptionAndADefault() throws Exception {
        Map<String, ConfigurationMetadataProperty> all = properties();
        assertThat(all).containsKeys("most.store.directory", "most.store.dram", "most.store.pm.size",
                "most.store.policy", "most.volume.placement-policy", "most.volume.capacity.size");
        for (ConfigurationMetadataProperty property : all.values()) {
            assertThat(property.getDescription()).as(property.getId()).isNotBlank().doesNotContain("{@");
            if (!NO_DEFAULT.contains(property.getId())) {
                assertThat(property.getDefaultValue()).as(property.getId()).isNotNull();
            }
        }
    }

    @Test
    void policiesAreHintedWithEveryValueMostAccepts() throws Exception {
        Map<String, ConfigurationMetadataProperty> all = properties();
        assertThat(all.get("most.store.policy").getHints().getValueHints()).extracting(ValueHint::getValue)
                .containsExactlyInAnyOrder("eager", "lazy", "hymem");
        assertThat(all.get("most.volume.placement-policy").getHints().getValueHints()).extracting(ValueHint::getValue)
                .containsExactlyInAnyOrderElementsOf(PlacementPolicies.names());
        assertThat(all.get("most.cache.volume.placement-policy").getHints().getValueHints())
                .extracting(ValueHint::getValue).containsExactlyInAnyOrderElementsOf(PlacementPolicies.names());
    }
}
