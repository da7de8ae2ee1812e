package io.most.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class KeyLockStripesTest {
    @Test
    void aStripeCountThatIsNoPowerOfTwoIsRefused() {
        for (int bad : new int[] {0, -4, 3, 1000}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new KeyLockStripes(bad));
            assertTrue(e.getMessage().contains("power of two") && e.getMessage().contains(String.valueOf(bad)),
                    e.getMessage());
        }
    }

    @Test
    void aKeyTakesItsOneStripeAndAnotherThreadCannotMeanwhile() {
        KeyLockStripes stripes = new KeyLockStripes(64);
        long h = KeyLockStripes.hash("key".getBytes());
        ReentrantLock lock = stripes.lock(h);
        try {
            assertTrue(lock.isHeldByCurrentThread());
            assertSame(lock, stripes.stripe(KeyLockStripes.hash("key".getBytes())), "an equal key, the same stripe");
            assertFalse(onAnotherThread(() -> stripes.stripe(h).tryLock()), "held: another thread cannot take it");
        } finally {
            lock.unlock();
        }
        assertFalse(lock.isLocked(), "released");
        assertEquals("ran", stripes.locked(h, () -> "ran"), "locked() returns the body's result");
        assertFalse(lock.isLocked(), "locked() releases the stripe");
    }

    @Test
    void nearbyHashesSpreadOverTheStripes() {
        KeyLockStripes stripes = new KeyLockStripes(1024);
        Set<Integer> used = new HashSet<>();
        for (int i = 0; i < 1024; i++) {
            int index = stripes.indexOf(i);
            assertTrue(index >= 0 && index < 1024, "stripe " + index);
            used.add(index);
        }
        // Fibonacci hashing lands consecutive integers far apart: most stripes are used (897 of them)
        assertTrue(used.size() > 800, used.size() + " of 1024 stripes used by 1024 consecutive hashes");
        assertEquals(0, new KeyLockStripes(1).indexOf(123456789L), "one stripe takes every key");
    }

    @Test
    void withAllLockedHoldsEveryStripeAndReleasesThemAll() {
        KeyLockStripes stripes = new KeyLockStripes(16);
        stripes.withAllLocked(() -> {
            for (long h = 0; h < 100; h++) {
                long key = h;
                assertFalse(onAnotherThread(() -> stripes.stripe(key).tryLock()), "stripe of " + h + " is held");
            }
        });
        for (long h = 0; h < 100; h++) {
            assertFalse(stripes.stripe(h).isLocked(), "released");
        }
        assertThrows(IllegalStateException.class, () -> stripes.withAllLocked(() -> {
            throw new IllegalStateException("a failing body");
        }));
        for (long h = 0; h < 100; h++) {
            assertFalse(stripes.stripe(h).isLocked(), "released after a failing body too");
        }
    }

    private static boolean onAnotherThread(Supplier<Boolean> probe) {
        CompletableFuture<Boolean> result = new CompletableFuture<>();
        Thread t = new Thread(() -> result.complete(probe.get()));
        t.start();
        return result.join();
    }
}
