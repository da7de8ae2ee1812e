package io.most.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DeadlinesTest {
    @Test
    void aLifetimeEndsItsMillisecondsAfterNow() {
        assertEquals(1_500, Deadlines.of(Duration.ofMillis(500), 1_000));
        assertEquals(Deadlines.NEVER, Deadlines.of(null, 1_000), "no lifetime, no deadline");
        assertEquals(Deadlines.NEVER, Deadlines.of(MostCache.FOREVER, 1_000));
        assertEquals(Deadlines.NEVER, Deadlines.of(Duration.ofDays(365L * 300_000_000), 1_000), "past the clock's range");
        assertEquals(Deadlines.NEVER, Deadlines.after(Long.MAX_VALUE - 10, 100), "an overflow is no deadline");
    }

    @Test
    void aLifetimeUnderAMillisecondIsRefusedByName() {
        for (Duration bad : new Duration[] {Duration.ZERO, Duration.ofMillis(-1), Duration.ofNanos(999_999)}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Deadlines.of(bad, 0));
            assertTrue(e.getMessage().contains("at least one millisecond"), e.getMessage());
        }
    }

    @Test
    void aDeadlinePassesAtItsMillisecond() {
        assertFalse(Deadlines.passed(1_500, 1_499));
        assertTrue(Deadlines.passed(1_500, 1_500));
        assertFalse(Deadlines.passed(Deadlines.NEVER, Long.MAX_VALUE), "NEVER never passes");
    }
}
