package io.most.kv;

import java.util.Iterator;

/**
 * An iterator over a {@link SingleWriterKvStore} range as of when it was opened. Must be closed; after
 * {@link #close} (or the store's) it has no more entries.
 */
public interface KvIterator extends Iterator<KeyValue>, AutoCloseable {
    /** The key {@link #next()} would return, without advancing; throws like {@code next} at the end. */
    byte[] peekKey();

    /** Releases what the iterator holds; idempotent. */
    @Override
    void close();
}
