package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@link LatchWord} on a bare {@code long[]} (as Neo4j's {@code SequenceLockTest} tests its lock on an
 * address): shared and exclusive holders exclude each other, every exclusive release moves the
 * version, and an optimistic read validates only if no writer came or went.
 */
class LatchWordTest {
    private static final int AT = 1; // a word with neighbours on both sides, which must stay untouched
    private final long[] words = new long[3];

    private long version() {
        return words[AT] >>> LatchWord.VERSION_SHIFT;
    }

    private void assertNeighboursUntouched() {
        assertEquals(0, words[0]);
        assertEquals(0, words[2]);
    }

    @Test
    void sharedHoldersExcludeAWriterAndAWriterExcludesEveryone() {
        assertTrue(LatchWord.tryLatchShared(words, AT));
        assertTrue(LatchWord.tryLatchShared(words, AT));
        assertFalse(LatchWord.tryLatchExclusive(words, AT), "shared holders exclude a writer");
        LatchWord.unlatchShared(words, AT);
        LatchWord.unlatchShared(words, AT);
        assertEquals(0, words[AT], "every shared holder gone, version unchanged");
        assertTrue(LatchWord.tryLatchExclusive(words, AT));
        assertTrue(LatchWord.isLatchedExclusively(words, AT));
        assertFalse(LatchWord.tryLatchExclusive(words, AT), "one writer at a time");
        assertFalse(LatchWord.tryLatchShared(words, AT), "a writer excludes readers");
        assertEquals(LatchWord.EXCLUSIVE, words[AT], "the failed shared attempt undid its add");
        LatchWord.unlatchExclusive(words, AT);
        assertFalse(LatchWord.isLatchedExclusively(words, AT));
        assertEquals(1, version(), "an exclusive release moves the version");
        assertNeighboursUntouched();
    }

    @Test
    void aDowngradeEndsTheWritersVersionAndKeepsOneReader() {
        LatchWord.latchExclusive(words, AT);
        LatchWord.downgrade(words, AT);
        assertEquals(1, version());
        assertEquals(1, words[AT] & LatchWord.SHARED_MASK, "one shared holder");
        assertFalse(LatchWord.tryLatchExclusive(words, AT));
        assertTrue(LatchWord.tryLatchShared(words, AT), "other readers may join");
        LatchWord.unlatchShared(words, AT);
        LatchWord.unlatchShared(words, AT);
        assertTrue(LatchWord.tryLatchExclusive(words, AT));
        assertNeighboursUntouched();
    }

    @Test
    void theSharedCountStopsAtItsCapBelowTheExclusiveBit() {
        for (long n = 0; n < LatchWord.MAX_SHARED; n++) {
            assertTrue(LatchWord.tryLatchShared(words, AT), "shared holder " + n);
        }
        assertFalse(LatchWord.tryLatchShared(words, AT), "one past the cap");
        assertEquals(LatchWord.MAX_SHARED, words[AT], "the refused add was undone, and never reached the exclusive bit");
        for (long n = 0; n < LatchWord.MAX_SHARED; n++) {
            LatchWord.unlatchShared(words, AT);
        }
        assertEquals(0, words[AT]);
    }

    @Test
    void anOptimisticReadValidatesUntilAWriterComesOrGoes() {
        long start = LatchWord.optimisticWord(words, AT);
        assertTrue(LatchWord.isReadable(start));
        assertTrue(LatchWord.tryLatchShared(words, AT));
        assertTrue(LatchWord.unchanged(start, LatchWord.wordAfterReads(words, AT)), "a reader arriving does not count");
        LatchWord.unlatchShared(words, AT);
        assertTrue(LatchWord.unchanged(start, LatchWord.wordAfterReads(words, AT)), "nor one leaving");
        LatchWord.latchExclusive(words, AT);
        assertFalse(LatchWord.unchanged(start, LatchWord.wordAfterReads(words, AT)), "a writer holds the word");
        assertFalse(LatchWord.isReadable(LatchWord.optimisticWord(words, AT)), "no read starts under a writer");
        LatchWord.unlatchExclusive(words, AT);
        assertFalse(LatchWord.unchanged(start, LatchWord.wordAfterReads(words, AT)), "the writer moved the version");
        assertFalse(LatchWord.isReadable(LatchWord.NOT_READABLE));
        assertFalse(LatchWord.unchanged(LatchWord.NOT_READABLE, words[AT]), "NOT_READABLE never validates");
    }

    /**
     * Two writers keep two plain longs equal under the exclusive latch; readers take them under a shared
     * latch (must always see them equal) or optimistically (may see them torn, but then must not
     * validate). Each reader runs until it has 2,000 reads of each kind done, so the test does not
     * depend on timing; the writers run until the readers are done.
     */
    @Test
    void latchedAndValidatedReadsNeverSeeAWritersHalfDoneWork() throws Exception {
        long[] data = new long[2];
        AtomicBoolean readersDone = new AtomicBoolean();
        AtomicLong tornButValidated = new AtomicLong();
        AtomicLong tornUnderSharedLatch = new AtomicLong();
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                writers.add(threads.submit(() -> {
                    for (long n = 0; !readersDone.get(); n++) {
                        LatchWord.latchExclusive(words, AT);
                        data[0] = n;
                        Thread.onSpinWait();
                        data[1] = n;
                        LatchWord.unlatchExclusive(words, AT);
                    }
                    return null;
                }));
            }
            List<Future<?>> readers = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                readers.add(threads.submit(() -> {
                    int latched = 0;
                    int validated = 0;
                    while (latched < 2_000 || validated < 2_000) {
                        LatchWord.latchShared(words, AT);
                        long a = data[0];
                        long b = data[1];
                        LatchWord.unlatchShared(words, AT);
                        latched++;
                        if (a != b) {
                            tornUnderSharedLatch.incrementAndGet();
                        }
                        long start = LatchWord.optimisticWord(words, AT);
                        if (!LatchWord.isReadable(start)) {
                            continue;
                        }
                        a = data[0];
                        b = data[1];
                        if (LatchWord.unchanged(start, LatchWord.wordAfterReads(words, AT))) {
                            validated++;
                            if (a != b) {
                                tornButValidated.incrementAndGet();
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> reader : readers) {
                reader.get();
            }
            readersDone.set(true);
            for (Future<?> writer : writers) {
                writer.get();
            }
        } finally {
            readersDone.set(true);
            threads.shutdownNow();
        }
        assertEquals(0, tornUnderSharedLatch.get(), "reads under the shared latch saw a writer's half-done work");
        assertEquals(0, tornButValidated.get(), "optimistic reads of a writer's half-done work validated");
        assertEquals(0, words[AT] & (LatchWord.EXCLUSIVE | LatchWord.SHARED_MASK), "every latch released");
        assertNeighboursUntouched();
    }
}
