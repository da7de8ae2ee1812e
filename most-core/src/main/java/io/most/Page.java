package io.most;

import java.lang.foreign.MemorySegment;

/**
 * A pinned, latched page of a {@link PageStore}, returned by {@link PageStore#read(long)} (shared
 * latch) or {@link PageStore#write(long)} (exclusive latch). Use it in try-with-resources: closing
 * releases the latch and the pin; the payload must not be touched afterwards.
 *
 * <pre>{@code
 * try (Page page = store.write(pageId)) {
 *     page.payload().set(ValueLayout.JAVA_LONG, 0, 42);
 *     page.markDirty(lsn);          // lsn of the log record describing the change
 * }
 * }</pre>
 *
 * A {@code Page} is not thread-safe: it belongs to the thread that obtained it.
 */
public interface Page extends AutoCloseable {

    /** The page id. */
    long id();

    /** The highest LSN passed to {@link #markDirty(long)} for this page so far (0 if none). */
    long lsn();

    /**
     * The page's usable bytes ({@link PageStore#payloadSize()} of them). Read-only for pages
     * obtained with {@link PageStore#read(long)}. The segment may be DRAM or persistent memory.
     */
    MemorySegment payload();

    /**
     * Records that the payload was modified by the change logged at {@code lsn}. Before the page
     * reaches PM or SSD the store calls the {@link WalHook} so that the log is durable up to the
     * page's LSN. Changes made without calling this may be lost on eviction.
     *
     * @throws IllegalStateException for a page obtained with {@link PageStore#read(long)}
     */
    void markDirty(long lsn);

    /** Releases the latch and the pin. Idempotent. */
    @Override
    void close();
}
