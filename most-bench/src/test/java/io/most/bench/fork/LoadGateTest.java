package io.most.bench.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The gate's decisions with scripted CPU counters or load averages and a clock that advances only when the
 * gate sleeps: no test waits, and none depends on timing.
 */
class LoadGateTest {
    private static final long SECOND = 1_000_000_000L;

    /** A clock whose time moves only by sleeping, so no test waits. */
    private static final class FakeClock implements LoadGate.Clock {
        long now;
        int sleeps;

        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public void sleep(long nanos) {
            now += nanos;
            sleeps++;
        }
    }

    /** Returns the scripted loads in turn, the last one forever after. */
    private static LoadGate.LoadSource script(Double... loads) {
        Deque<Double> left = new ArrayDeque<>(List.of(loads));
        return () -> left.size() > 1 ? left.poll() : left.peek();
    }

    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);

    @Test
    void quietMachinePassesAtOnce() {
        FakeClock clock = new FakeClock();
        LoadGate.Outcome o = new LoadGate(script(1.5), clock, 2, 60 * SECOND).await("x", out);
        assertEquals(new LoadGate.Outcome(1.5, Double.NaN, 0, false), o);
        assertEquals(0, clock.sleeps);
        assertEquals("", log.toString(StandardCharsets.UTF_8), "nothing to say");
    }

    @Test
    void busyMachineWaitsUntilTheLoadFalls() {
        FakeClock clock = new FakeClock();
        LoadGate.Outcome o = new LoadGate(script(5.0, 4.0, 1.0), clock, 2, 60 * SECOND).await("most", out);
        assertEquals(1.0, o.loadAtStart());
        assertEquals(2 * LoadGate.POLL_NANOS, o.waitedNanos());
        assertFalse(o.gaveUp());
        String said = log.toString(StandardCharsets.UTF_8);
        assertTrue(said.contains("load average 5.00 > 2 cores"), said);
        assertTrue(said.contains("machine quiet"), said);
    }

    @Test
    void busyMachineIsWaitedForOnlyUpToTheBound() {
        FakeClock clock = new FakeClock();
        LoadGate.Outcome o = new LoadGate(script(9.0), clock, 2, 12 * SECOND).await("most", out);
        assertEquals(12 * SECOND, o.waitedNanos(), "the last sleep is cut to the bound");
        assertTrue(o.gaveUp());
        assertEquals(9.0, o.loadAtStart());
        assertTrue(log.toString(StandardCharsets.UTF_8).contains("running anyway"));
    }

    @Test
    void zeroBoundOnlyRecords() {
        FakeClock clock = new FakeClock();
        LoadGate.Outcome o = new LoadGate(script(9.0), clock, 2, 0).await("most", out);
        assertEquals(new LoadGate.Outcome(9.0, Double.NaN, 0, true), o);
        assertEquals(0, clock.sleeps);
    }

    @Test
    void platformWithoutLoadAverageNeverWaits() {
        FakeClock clock = new FakeClock();
        LoadGate gate = new LoadGate(script(-1.0), clock, 2, 60 * SECOND);
        LoadGate.Outcome o = gate.await("most", out);
        assertTrue(Double.isNaN(o.loadAtStart()));
        assertFalse(o.gaveUp());
        assertTrue(Double.isNaN(gate.loadNow()));
    }

    @Test
    void badSettingsAreRefused() {
        FakeClock clock = new FakeClock();
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new LoadGate(script(1.0), clock, 0, SECOND));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new LoadGate(script(1.0), clock, 2, -1));
    }

    /** Returns the scripted samples in turn, the last one forever after. */
    private static LoadGate.CpuSource samples(CpuSample... samples) {
        Deque<CpuSample> left = new ArrayDeque<>(List.of(samples));
        return () -> Optional.of(left.size() > 1 ? left.poll() : left.peek());
    }

    /** A sample: machine busy and total ticks, and the bench's processes' ticks as pid, ticks pairs. */
    private static CpuSample at(long busy, long total, long... pidTicks) {
        Map<Long, Long> own = new HashMap<>();
        for (int i = 0; i < pidTicks.length; i += 2) {
            own.put(pidTicks[i], pidTicks[i + 1]);
        }
        return new CpuSample(busy, total, own);
    }

    @Test
    void theBenchsOwnCpuDoesNotMakeTheMachineBusy() {
        // 2 cores x 2 s = 400 ticks; 380 busy, of which this JVM 20 and its forked run 350: others 10 = 2.5%
        FakeClock clock = new FakeClock();
        LoadGate gate = new LoadGate(script(12.0), samples(at(1000, 10_000, 1, 100, 2, 500),
                at(1380, 10_400, 1, 120, 2, 850)), clock, 2, 60 * SECOND);
        LoadGate.Outcome o = gate.await("most", out);
        assertEquals(0.025, o.otherCpuBusy(), 1e-9);
        assertFalse(o.gaveUp());
        assertEquals(12.0, o.loadAtStart(), "the load average, high from the bench's last run, is recorded, not obeyed");
        assertEquals(LoadGate.WINDOW_NANOS, o.waitedNanos(), "one window to measure, no wait");
        assertEquals("", log.toString(StandardCharsets.UTF_8));
    }

    @Test
    void anotherProcessMakesTheGateWaitUntilItStops() {
        // a build takes 1.5 of 2 cores for two windows, then 0.1
        FakeClock clock = new FakeClock();
        LoadGate gate = new LoadGate(script(1.0), samples(at(0, 0, 1, 0), at(300, 400, 1, 0), at(600, 800, 1, 0),
                at(620, 1200, 1, 0)), clock, 2, 60 * SECOND);
        LoadGate.Outcome o = gate.await("most", out);
        assertEquals(0.05, o.otherCpuBusy(), 1e-9);
        assertFalse(o.gaveUp());
        assertEquals(3 * LoadGate.WINDOW_NANOS, o.waitedNanos());
        String said = log.toString(StandardCharsets.UTF_8);
        assertTrue(said.contains("other processes kept 1.50 of 2 cores busy"), said);
        assertTrue(said.contains("machine quiet"), said);
    }

    @Test
    void halfACoreOfOthersIsStillQuiet() {
        LoadGate gate = new LoadGate(script(1.0), samples(at(0, 0), at(100, 400)), new FakeClock(), 2, 60 * SECOND);
        LoadGate.Outcome o = gate.await("most", out);
        assertEquals(0.25, o.otherCpuBusy(), 1e-9, "half of one of two cores");
        assertFalse(o.gaveUp());
    }

    @Test
    void aMachineThatStaysBusyIsWaitedForOnlyUpToTheBound() {
        FakeClock clock = new FakeClock();
        LoadGate gate = new LoadGate(script(1.0), samples(at(0, 0), at(400, 400), at(800, 800), at(1200, 1200),
                at(1600, 1600)), clock, 2, 5 * SECOND);
        LoadGate.Outcome o = gate.await("most", out);
        assertTrue(o.gaveUp());
        assertEquals(1.0, o.otherCpuBusy(), 1e-9);
        assertEquals(5 * SECOND, o.waitedNanos(), "the last window is cut to the bound");
        assertTrue(log.toString(StandardCharsets.UTF_8).contains("running anyway"));
    }

    @Test
    void aForkedRunThatEndsInTheWindowCountsAsOthersNeverAsLess() {
        // pid 2 ended between the samples: its ticks are unknown, so they count as others' (a longer wait at worst)
        CpuSample before = at(0, 400, 1, 10, 2, 100);
        CpuSample after = at(200, 800, 1, 20);
        assertEquals(190 / 400.0, CpuSample.otherBusy(before, after), 1e-9);
        assertTrue(Double.isNaN(CpuSample.otherBusy(after, after)), "no time between the samples");
        assertEquals(0.0, CpuSample.otherBusy(at(0, 0, 1, 0), at(10, 400, 1, 50)), "never below 0");
    }

    @Test
    void withoutCountersTheLoadAverageDecides() {
        FakeClock clock = new FakeClock();
        LoadGate.Outcome o = new LoadGate(script(5.0, 1.0), Optional::empty, clock, 2, 60 * SECOND).await("x", out);
        assertEquals(1.0, o.loadAtStart());
        assertTrue(Double.isNaN(o.otherCpuBusy()));
        assertEquals(LoadGate.POLL_NANOS, o.waitedNanos());
    }
}
