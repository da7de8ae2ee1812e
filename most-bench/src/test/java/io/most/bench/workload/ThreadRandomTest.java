package io.most.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Driver threads draw independent, reproducible streams. */
class ThreadRandomTest {
    private static final Workload.Setup SETUP = new Workload.Setup(1 << 20, 4096, 42, Optional.empty());

    @Test
    void threadsDoNotReplayEachOthersStreams() {
        Set<Long> seen = new HashSet<>();
        for (int thread = 0; thread < 4; thread++) {
            SplittableRandom random = SETUP.randomFor(thread);
            for (int i = 0; i < 10_000; i++) {
                assertTrue(seen.add(random.nextLong()), "thread " + thread + " draw " + i + " repeats another's");
            }
        }
    }

    @Test
    void sameSeedAndThreadSameStream() {
        assertEquals(SETUP.randomFor(3).nextLong(), SETUP.randomFor(3).nextLong());
    }
}
