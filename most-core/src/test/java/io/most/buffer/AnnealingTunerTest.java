package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.MigrationPolicy;
import io.most.Page;
import io.most.PageStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AnnealingTunerTest {
    @TempDir
    Path dir;

    @Test
    void neighboursChangeOneProbabilityByOneLevel() {
        MigrationPolicy start = MigrationPolicy.eager();
        for (int i = 0; i < 200; i++) {
            MigrationPolicy next = AnnealingTuner.neighbour(start);
            double[] a = {start.dr(), start.dw(), start.nr(), start.nw()};
            double[] b = {next.dr(), next.dw(), next.nr(), next.nw()};
            int changed = 0;
            for (int k = 0; k < 4; k++) {
                if (a[k] != b[k]) {
                    changed++;
                    assertEquals(0.5, b[k], "from 1 the only neighbour level is 0.5");
                }
            }
            assertEquals(1, changed);
        }
        Set<Double> seen = new HashSet<>();
        MigrationPolicy p = MigrationPolicy.lazy();
        for (int i = 0; i < 2000; i++) {
            p = AnnealingTuner.neighbour(p);
            seen.add(p.dr());
        }
        assertTrue(seen.size() >= 5, "a random walk visits most levels: " + seen);
        assertTrue(seen.stream().allMatch(v -> Arrays.stream(AnnealingTuner.LEVELS).anyMatch(l -> l == v)));
    }

    @Test
    void adaptiveStoreExploresPoliciesWhileServingAndStopsOnClose() {
        PageStore store = PageStore.open(StoreFixture.config(dir, 300, 16, 32, MigrationPolicy.eager())
                .adaptive(Duration.ofMillis(20)).build());
        Set<MigrationPolicy> seen = new HashSet<>();
        try {
            long[] ids = new long[300];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = store.allocate();
            }
            SplittableRandom random = new SplittableRandom(1);
            long deadline = System.nanoTime() + 1_500_000_000L;
            while (System.nanoTime() < deadline) {
                long id = ids[random.nextInt(ids.length)];
                try (Page page = store.read(id)) {
                    page.payload().get(java.lang.foreign.ValueLayout.JAVA_LONG, 0);
                }
                seen.add(store.policy());
            }
        } finally {
            store.close();
        }
        assertTrue(seen.size() > 3, "the tuner tried several policies: " + seen);
        assertNotEquals(null, store.policy());
    }
}
