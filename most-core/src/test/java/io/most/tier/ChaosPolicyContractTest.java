package io.most.tier;

import io.most.tier.policy.PlacementPolicy;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.MemoryDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/**
 * The placement-policy contract on the chaos policy, which migrates, mirrors, unmirrors and routes
 * at random every interval: the suite's data checks then run across every path of the volume, which
 * the default policies, deciding sensibly, take only some of.
 */
class ChaosPolicyContractTest extends PlacementPolicyContractTest {
    @Override
    protected PlacementPolicy newPolicy() {
        return new ChaosPolicy(6);
    }

    @Test
    void theChaosPolicyReallyMovesData() {
        try (TieredVolume v = TieredVolume.open(new MemoryDevice("perf", 4096, 10L * TierFixture.SEGMENT),
                new MemoryDevice("cap", 4096, 24L * TierFixture.SEGMENT), TierFixture.small().policy(this::newPolicy).build());
             Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(4096, 4096);
            for (long off = 0; off < v.capacity(); off += 4096) {
                v.write(off, buf);
            }
            for (int i = 0; i < 10; i++) {
                v.optimizeNow();
            }
            assertTrue(v.tierStats().migrations() > 0, "so the contract's checks ran across migrations: " + v.tierStats());
        }
    }
}
