package io.most;

/**
 * The embedding engine's write-ahead log, as the store sees it: before a dirty page with LSN
 * {@code L} reaches persistent memory or the block tier, the store calls {@code flushUpTo(L)} and
 * the engine makes its log durable up to {@code L} before returning.
 *
 * <p>Called from the thread that writes the page back (an evicting reader or writer, the cleaner,
 * {@code flush}, {@code checkpoint}), possibly concurrently. It must not call back into the store.
 */
@FunctionalInterface
public interface WalHook {
    /** A hook for stores without a log (every LSN is durable already). */
    WalHook NONE = lsn -> { };

    void flushUpTo(long lsn);
}
