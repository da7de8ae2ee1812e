package io.most.kafka.streams;

/**
 * When a commit of changelog offsets makes a MOST store checkpoint, and when it only remembers them.
 *
 * <p>A checkpoint writes every page changed since the previous one, after their before-images went to
 * the rollback journal, so checkpointing at each of exactly-once's 100 ms commits writes each page a
 * record changes about twice per commit. The changelog topic already holds every change, so a store
 * need not make each commit durable: after a crash it reopens at its last checkpoint and Kafka Streams
 * replays the changelog after that checkpoint's offsets. This policy checkpoints once {@code interval}
 * has passed since the last checkpoint or {@code bytes} of pages have changed since it, whichever
 * comes first; the interval bounds the replay after a crash, the bytes bound the journal, the
 * checkpoint's burst of writes and the rollback at reopen.
 *
 * <p>Not thread-safe: the stream thread that owns the store commits it.
 */
final class CheckpointPolicy {
    private final long intervalNanos;
    private final long bytes;
    private long lastCheckpoint;

    /** {@code intervalMs} 0 checkpoints at every commit. */
    CheckpointPolicy(long intervalMs, long bytes, long now) {
        if (intervalMs < 0 || bytes <= 0) {
            throw new IllegalArgumentException("checkpoint interval " + intervalMs + " ms must not be negative and"
                    + " checkpoint bytes " + bytes + " must be positive");
        }
        this.intervalNanos = intervalMs * 1_000_000L;
        this.bytes = bytes;
        this.lastCheckpoint = now;
    }

    /** Whether a commit at {@code now} ({@link System#nanoTime}) with {@code changedBytes} changed must checkpoint. */
    boolean due(long changedBytes, long now) {
        return intervalNanos == 0 || changedBytes >= bytes || now - lastCheckpoint >= intervalNanos;
    }

    /** Records that the store checkpointed at {@code now}. */
    void checkpointed(long now) {
        lastCheckpoint = now;
    }
}
