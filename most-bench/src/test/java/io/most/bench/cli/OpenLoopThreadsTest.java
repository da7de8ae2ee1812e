package io.most.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.bench.UsageException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Little's law for the open loop's threads: arithmetic and the refusals' messages, nothing run. */
class OpenLoopThreadsTest {
    @Test
    void busyThreadsAreRateTimesServiceAndWakeUp() {
        // 10,000 ops/s x (400 us + 100 us) = 5 threads busy
        assertEquals(5.0, OpenLoopThreads.busy(10_000, 400_000), 1e-9);
        assertEquals(8, OpenLoopThreads.recommended(10_000, 400_000), "5 x 1.5 headroom, rounded up");
        assertEquals(1, OpenLoopThreads.recommended(1, 1000), "at least one");
    }

    @Test
    void withoutThreadsTheRecommendedCountIsChosen() {
        assertEquals(8, OpenLoopThreads.choose(0, 10_000, 400_000, 400_000, 1024));
    }

    @Test
    void enoughGivenThreadsAreKept() {
        assertEquals(5, OpenLoopThreads.choose(5, 10_000, 400_000, 400_000, 1024));
        assertEquals(64, OpenLoopThreads.choose(64, 10_000, 400_000, 400_000, 1024));
    }

    @Test
    void tooFewGivenThreadsAreRefusedNamingTheNumberNeeded() {
        UsageException e = assertThrows(UsageException.class, () -> OpenLoopThreads.choose(1, 10_000, 400_000, 400_000, 1024));
        assertTrue(e.getMessage().contains("--threads 1 cannot offer 10,000 ops/s"), e.getMessage());
        assertTrue(e.getMessage().contains("use --threads 5 or more"), e.getMessage());
        assertTrue(e.getMessage().contains("leave --threads out to get 8"), e.getMessage());
    }

    @Test
    void aRateBeyondTheThreadLimitIsRefused() {
        UsageException e = assertThrows(UsageException.class, () -> OpenLoopThreads.choose(0, 1e7, 400_000, 400_000, 1024));
        assertTrue(e.getMessage().contains("lower --intensity"), e.getMessage());
    }

    @Test
    void theIssuesExampleGetsEnoughThreadsByDefault() {
        // most-rand-read on optane-nvme at 2.0 used to run on 1 thread and report 0 ops/s
        RunSpec spec = RunSpec.parse(Options.ofRun(List.of("--workload", "most-rand-read", "--hierarchy",
                "optane-nvme", "--intensity", "2.0")));
        assertTrue(spec.threadsChosen());
        double rate = 2.0 * spec.workload().saturationRate(spec.hierarchy(), spec.blockSize()).orElseThrow();
        double service = spec.workload().meanServiceNanos(spec.hierarchy(), spec.blockSize()).orElseThrow();
        assertTrue(spec.threads() >= OpenLoopThreads.busy(rate, service), spec.threads() + " threads");
        Cli refused = Cli.run("run", "--workload", "most-rand-read", "--hierarchy", "optane-nvme", "--intensity", "2.0",
                "--threads", "1");
        assertEquals(2, refused.exitCode());
        assertTrue(refused.err().contains("use --threads"), refused.err());
    }

    @Test
    void theDefaultPoolIsSizedForTheSlowestDeviceARequestCanReach() {
        // most-rand-read at 2.0x on optane-nvme: 54,545 ops/s (2x the Optane's 27,273 at x20). At the Optane's
        // 220 us that was 27 threads, which ran out once MOST offloaded to the NVMe; at the NVMe's 1,640 us
        // (+ 100 us wake-up) 94.9 threads are busy, x 1.5 headroom = 143
        RunSpec spec = RunSpec.parse(Options.ofRun(List.of("--workload", "most-rand-read", "--hierarchy",
                "optane-nvme", "--intensity", "2.0")));
        assertEquals(1_640_000, spec.workload().slowestServiceNanos(spec.hierarchy(), spec.blockSize())
                .orElseThrow(), 1e-6);
        assertEquals(220_000, spec.workload().meanServiceNanos(spec.hierarchy(), spec.blockSize()).orElseThrow(),
                1e-6);
        assertEquals(143, spec.threads());
    }

    @Test
    void aGivenCountIsRefusedOnlyBelowWhatTheFastestDeviceNeeds() {
        // 10,000 ops/s: 5 threads busy at 400 us, 20 at 1,900 us; the default is sized for the slower device
        assertEquals(30, OpenLoopThreads.choose(0, 10_000, 400_000, 1_900_000, 1024));
        assertEquals(6, OpenLoopThreads.choose(6, 10_000, 400_000, 1_900_000, 1024), "kept: the run's driver_limited"
                + " says whether it ran short");
        UsageException e = assertThrows(UsageException.class,
                () -> OpenLoopThreads.choose(4, 10_000, 400_000, 1_900_000, 1024));
        assertTrue(e.getMessage().contains("use --threads 5 or more, or leave --threads out to get 30"), e.getMessage());
        assertEquals(1024, OpenLoopThreads.choose(0, 100_000, 400_000, 19_900_000, 1024), "capped at the limit");
    }
}
