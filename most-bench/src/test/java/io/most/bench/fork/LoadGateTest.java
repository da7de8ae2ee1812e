package io.most.bench.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The gate's decisions with a scripted load and a clock that advances only when the gate sleeps. */
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
        assertEquals(new LoadGate.Outcome(1.5, 0, false), o);
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
        assertEquals(new LoadGate.Outcome(9.0, 0, true), o);
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
}
