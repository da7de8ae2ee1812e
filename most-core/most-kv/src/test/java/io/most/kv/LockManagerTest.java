package io.most.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The striped lock table: ordered range lookups, lock-free read stamps, deadlocks across stripes. */
class LockManagerTest {
    private final LockManager locks = new LockManager(Duration.ofMinutes(5));

    private static byte[] key(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The first of {@code prefix}0, {@code prefix}1, ... whose stripe is not {@code key}'s. */
    private static byte[] inAnotherStripe(byte[] key, String prefix) {
        for (int i = 0; ; i++) {
            byte[] candidate = key(prefix + i);
            if (LockManager.stripeIndex(candidate) != LockManager.stripeIndex(key)) {
                return candidate;
            }
        }
    }

    @Test
    void exclusiveKeysOfAllStripesComeBackInOrder() {
        LockManager.Txn writer = new LockManager.Txn(1);
        LockManager.Txn reader = new LockManager.Txn(2);
        for (int i = 99; i >= 0; i--) {
            locks.lock(i % 2 == 0 ? writer : reader, key(String.format("k%03d", i)),
                    i % 2 == 0 ? LockManager.Mode.EXCLUSIVE : LockManager.Mode.SHARED);
        }
        List<String> seen = locks.exclusiveKeys(key("k010"), key("k020"), reader).stream()
                .map(k -> new String(k, StandardCharsets.UTF_8)).toList();
        assertEquals(List.of("k010", "k012", "k014", "k016", "k018"), seen);
        assertTrue(locks.exclusiveKeys(key("k"), null, writer).isEmpty(), "its own keys are not others'");
        locks.releaseAll(writer);
        assertTrue(locks.exclusiveKeys(key("k"), null, reader).isEmpty());
        locks.releaseAll(reader);
    }

    @Test
    void aLockFreeReadIsValidOnlyIfNoExclusiveLockWasHeldInItsStripeMeanwhile() {
        byte[] k = key("k");
        byte[] other = inAnotherStripe(k, "o");
        int s = LockManager.stripeIndex(k);
        LockManager.Txn writer = new LockManager.Txn(1);
        LockManager.Txn reader = new LockManager.Txn(2);

        locks.lock(reader, k, LockManager.Mode.SHARED);
        locks.lock(writer, other, LockManager.Mode.EXCLUSIVE);
        long stamp = locks.readStamp(s);
        assertTrue(stamp >= 0, "shared locks and other stripes' exclusive locks do not stop a lock-free read");
        assertTrue(locks.validate(s, stamp));
        locks.releaseAll(reader);
        locks.releaseAll(writer);

        locks.lock(writer, k, LockManager.Mode.EXCLUSIVE);
        assertEquals(-1, locks.readStamp(s), "an exclusive lock is held in the stripe");
        locks.releaseAll(writer);

        stamp = locks.readStamp(s);
        locks.lock(writer, k, LockManager.Mode.EXCLUSIVE); // a write came and went during the read
        locks.releaseAll(writer);
        assertFalse(locks.validate(s, stamp));
        assertTrue(locks.validate(s, locks.readStamp(s)));
        assertFalse(locks.validate(s, -1));
    }

    @Test
    void deadlockAcrossStripesIsDetectedAndTheWaiterGetsItsLockAfterwards() {
        byte[] a = key("a");
        byte[] b = inAnotherStripe(a, "b");
        assertNotEquals(LockManager.stripeIndex(a), LockManager.stripeIndex(b));
        LockManager.Txn t1 = new LockManager.Txn(1);
        LockManager.Txn t2 = new LockManager.Txn(2);
        locks.lock(t1, a, LockManager.Mode.EXCLUSIVE);
        locks.lock(t2, b, LockManager.Mode.EXCLUSIVE);
        byte[] wanted = b;
        CompletableFuture<Void> waiter = CompletableFuture.runAsync(() -> locks.lock(t1, wanted, LockManager.Mode.EXCLUSIVE));
        while (!locks.isWaiting(t1)) {
            Thread.onSpinWait();
        }
        TransactionConflictException e = assertThrows(TransactionConflictException.class,
                () -> locks.lock(t2, a, LockManager.Mode.SHARED));
        assertTrue(e.getMessage().contains("deadlock"), e.getMessage());
        locks.releaseAll(t2); // the victim aborts: its release wakes the waiter on the other stripe
        waiter.join();
        assertEquals(List.of("a", new String(b, StandardCharsets.UTF_8)), locks.exclusiveKeys(key(""), null, t2).stream()
                .map(k -> new String(k, StandardCharsets.UTF_8)).toList());
        locks.releaseAll(t1);
    }
}
