package io.most.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.most.device.MemoryDevice;
import io.most.tier.TierConfig;
import io.most.tier.TieredVolume;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TieredVolumeMetricsTest {

    @Test
    void publishesSegmentsSubpagesAndRatio() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        TierConfig config = TierConfig.builder().segmentSize(64 * 1024).optimizerInterval(Duration.ZERO).name("vol").build();
        try (TieredVolume volume = TieredVolume.open(new MemoryDevice("p", 4096, 4 << 20),
                new MemoryDevice("c", 4096, 12 << 20), config); Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(3 * 64 * 1024, 4096);
            volume.write(0, buf);
            new TieredVolumeMetrics(volume).bindTo(registry);
            System.gc(); // the registry must keep the binder: the test holds no reference to it
            assertEquals(3.0, registry.get("most.tier.segments").tags("volume", "vol", "class", "tiered-performance")
                    .gauge().value());
            assertEquals(0.0, registry.get("most.tier.segments").tags("class", "mirrored").gauge().value());
            assertEquals(0.0, registry.get("most.tier.offload.ratio").gauge().value());
            assertEquals(0.0, registry.get("most.tier.subpages").tags("state", "invalid").gauge().value());
            assertEquals(0.0, registry.get("most.tier.migrated").tags("tier", "capacity").functionCounter().count());
            assertEquals(1.0, registry.get("most.tier.checkpoints").functionCounter().count(), "the format's");
            double seconds = registry.get("most.tier.checkpoint.time").functionCounter().count();
            assertTrue(seconds > 0, "the format's checkpoint took time");
            assertEquals(volume.tierStats().checkpointNanos() / 1e9, seconds, 1e-9);
        }
    }
}
