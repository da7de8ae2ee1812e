package io.most.kafka.streams;

import java.util.NoSuchElementException;
import java.util.function.Predicate;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * A scan of a {@link MostKeyValueStore} holding composite keys {@code [key][fixed-size suffix]} (window and
 * session stores): the entries between two composite bounds that pass a filter on the composite key. The
 * bounds only narrow the scan; the filter decides, because keys that extend one another interleave in
 * byte order (key "a" with any suffix sorts among the composites of key "a\0").
 */
final class CompositeKeyScan {
    private final KeyValueIterator<Bytes, byte[]> it;
    private final Predicate<byte[]> accept;
    private KeyValue<Bytes, byte[]> next;

    /** An empty scan. */
    CompositeKeyScan() {
        this.it = null;
        this.accept = c -> false;
    }

    /** The entries within {@code [lower, upper]} (null: open) that {@code accept} takes, ascending or not. */
    CompositeKeyScan(MostKeyValueStore entries, Bytes lower, Bytes upper, boolean backward, Predicate<byte[]> accept) {
        this.it = backward ? entries.reverseRange(lower, upper) : entries.range(lower, upper);
        this.accept = accept;
    }

    boolean hasNext() {
        while (next == null && it != null && it.hasNext()) {
            KeyValue<Bytes, byte[]> e = it.next();
            if (accept.test(e.key.get())) {
                next = e;
            }
        }
        return next != null;
    }

    KeyValue<Bytes, byte[]> peek() {
        if (!hasNext()) {
            throw new NoSuchElementException("no more entries");
        }
        return next;
    }

    KeyValue<Bytes, byte[]> next() {
        KeyValue<Bytes, byte[]> e = peek();
        next = null;
        return e;
    }

    void close() {
        if (it != null) {
            it.close();
        }
    }

    /**
     * An iterator over {@code scan} whose keys are {@code key} of each composite key. The caller's
     * {@code mapKey} must not keep the array.
     */
    static <K> KeyValueIterator<K, byte[]> iterator(CompositeKeyScan scan, java.util.function.Function<byte[], K> mapKey) {
        return new KeyValueIterator<>() {
            @Override
            public boolean hasNext() {
                return scan.hasNext();
            }

            @Override
            public KeyValue<K, byte[]> next() {
                KeyValue<Bytes, byte[]> e = scan.next();
                return KeyValue.pair(mapKey.apply(e.key.get()), e.value);
            }

            @Override
            public K peekNextKey() {
                return mapKey.apply(scan.peek().key.get());
            }

            @Override
            public void close() {
                scan.close();
            }
        };
    }
}
