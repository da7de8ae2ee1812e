package io.most.kv;

import java.nio.file.Path;
import java.time.Duration;

/** Small databases on real files for the tests: 4 KiB pages so that trees get deep quickly. */
final class TestDatabases {
    private TestDatabases() {
    }

    static KvOptions.Builder small(Path dir) {
        return KvOptions.inDirectory(dir).pageSize(4096).dramBytes(64 * 4096).deviceBytes(64L << 20)
                .lockTimeout(Duration.ofSeconds(30));
    }

    static KvDatabase open(Path dir) {
        return KvDatabase.open(small(dir).build());
    }

    /** A small database whose transactions wait at most {@code lockTimeout} for a lock. */
    static KvDatabase open(Path dir, Duration lockTimeout) {
        return KvDatabase.open(small(dir).lockTimeout(lockTimeout).build());
    }

    static byte[] key(int i) {
        return String.format("key%08d", i).getBytes();
    }

    /** Bytes this thread allocated so far: what the allocation tests count (never a time). */
    static long allocatedByThisThread() {
        return ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean())
                .getThreadAllocatedBytes(Thread.currentThread().threadId());
    }

    /** Runs {@code body} on a test thread, collecting what it throws for the test thread to assert on. */
    static void guard(java.util.Collection<Throwable> errors, Runnable body) {
        try {
            body.run();
        } catch (Throwable t) {
            errors.add(t);
        }
    }

    static byte[] bytes(String s) {
        return s.getBytes();
    }
}
