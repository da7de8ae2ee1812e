package io.most.bench.fork;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Parsing of {@code /proc} text, on fixed lines. */
class ProcCpuTest {
    @Test
    void machineTicksAreUserToStealWithIdleAndIowaitIdle() {
        String stat = "cpu  100 5 50 1000 20 3 2 7 40 0\ncpu0 50 2 25 500 10 1 1 3 20 0\nintr 1 2 3\n";
        // total = 100+5+50+1000+20+3+2+7 = 1187 (guest is inside user), idle = 1000+20
        assertArrayEquals(new long[] {167, 1187}, ProcCpu.machineTicks(stat));
    }

    @Test
    void processTicksAreUtimePlusStimeAfterTheCommandName() {
        String stat = "4242 (java (bench) x) S 1 4242 4242 0 -1 4194560 9000 0 0 0 731 64 3 1 20 0 40 0 5 0 0";
        assertEquals(795, ProcCpu.processTicks(stat));
    }

    @Test
    void otherTextIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> ProcCpu.machineTicks("intr 1 2 3\n"));
        assertThrows(IllegalArgumentException.class, () -> ProcCpu.processTicks("no parenthesis here"));
    }
}
