package io.most;

import java.lang.foreign.MemorySegment;

/**
 * Reads a page's payload, for {@link PageStore#readOptimistic(PageCursor, long, PageReader)} and
 * {@link PageStore#readAll}. Without a latch the payload may change while it is read; the store
 * validates afterwards and calls the reader again if it did. So the reader must be side-effect free,
 * must not trust what it reads to be consistent (bound every loop and index by the segment size), and
 * may throw: a throw during an invalid read is retried, during a valid read it propagates.
 */
@FunctionalInterface
public interface PageReader<R> {
    R read(MemorySegment payload);
}
