package io.most.kv;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;

/**
 * {@link SingleWriterKvStore}'s snapshot iterator: reads the tree a chunk at a time and merges the
 * before-images the writer handed over for keys it changed beyond {@link #readTo} (see the store's
 * class comment). {@link #beforeImage} and {@link #wantsBeforeImage} run on the writer, under the
 * store's lock; {@link #refill} takes the same lock, so a write is either wholly before a chunk read
 * (and captured if beyond it) or wholly after it.
 */
final class SnapshotIterator implements KvIterator {
    /** A captured absence: the key had no value when the iterator was opened. */
    private static final byte[] ABSENT = new byte[0];

    private final SingleWriterKvStore store;
    private final byte[] from;
    private final byte[] to;
    private final boolean reverse;
    private final ArrayDeque<KeyValue> buffer = new ArrayDeque<>();
    /** Before-images of keys beyond {@link #readTo}, changed since the iterator was opened. */
    private final TreeMap<byte[], byte[]> captured = new TreeMap<>(Arrays::compareUnsigned);
    /** The last key read from the tree (null: none yet); everything up to it is in {@link #buffer} or returned. */
    private byte[] readTo;
    private boolean treeDone;
    private volatile boolean closed;

    SnapshotIterator(SingleWriterKvStore store, byte[] from, byte[] to, boolean reverse) {
        this.store = store;
        this.from = from == null ? null : from.clone();
        this.to = to == null ? null : to.clone();
        this.reverse = reverse;
    }

    /** Whether the writer must hand over {@code key}'s before-image: in range and not read yet. */
    boolean wantsBeforeImage(byte[] key) {
        if (treeDone || captured.containsKey(key)) {
            return false;
        }
        if ((from != null && Arrays.compareUnsigned(key, from) < 0) || (to != null && Arrays.compareUnsigned(key, to) > 0)) {
            return false;
        }
        return readTo == null || (reverse ? Arrays.compareUnsigned(key, readTo) < 0 : Arrays.compareUnsigned(key, readTo) > 0);
    }

    /** The value {@code key} had when the iterator was opened (null: none). */
    void beforeImage(byte[] key, byte[] value) {
        captured.put(key.clone(), value == null ? ABSENT : value);
    }

    @Override
    public boolean hasNext() {
        while (buffer.isEmpty() && !closed && !treeDone) {
            refill();
        }
        return !buffer.isEmpty();
    }

    @Override
    public KeyValue next() {
        if (!hasNext()) {
            throw new NoSuchElementException("no more entries in the range");
        }
        return buffer.poll();
    }

    @Override
    public byte[] peekKey() {
        if (!hasNext()) {
            throw new NoSuchElementException("no more entries in the range");
        }
        return buffer.peek().key().clone();
    }

    private void refill() {
        store.lock().lock();
        try {
            if (closed) {
                return;
            }
            List<KeyValue> chunk;
            if (reverse) {
                chunk = store.readChunk(from, readTo != null ? readTo : after(to), true, SingleWriterKvStore.CHUNK);
            } else {
                chunk = store.readChunk(readTo != null ? after(readTo) : from, after(to), false, SingleWriterKvStore.CHUNK);
            }
            boolean done = chunk.size() < SingleWriterKvStore.CHUNK;
            byte[] end = done ? null : chunk.get(chunk.size() - 1).key();
            List<KeyValue> merged = new ArrayList<>(chunk.size());
            for (KeyValue e : chunk) {
                byte[] before = captured.remove(e.key());
                if (before == null) {
                    merged.add(e);
                } else if (before != ABSENT) {
                    merged.add(new KeyValue(e.key(), before));
                }
            }
            // captured keys the tree no longer holds (deleted since): up to the chunk's end, or all when done
            Map<byte[], byte[]> gone = end == null ? captured
                    : reverse ? captured.tailMap(end, true) : captured.headMap(end, true);
            boolean any = false;
            for (Iterator<Map.Entry<byte[], byte[]>> i = gone.entrySet().iterator(); i.hasNext(); ) {
                Map.Entry<byte[], byte[]> c = i.next();
                if (c.getValue() != ABSENT) {
                    merged.add(new KeyValue(c.getKey(), c.getValue()));
                    any = true;
                }
                i.remove();
            }
            if (any) {
                merged.sort(reverse ? (a, b) -> Arrays.compareUnsigned(b.key(), a.key())
                        : (a, b) -> Arrays.compareUnsigned(a.key(), b.key()));
            }
            buffer.addAll(merged);
            readTo = end;
            if (done) {
                finish();
            }
        } finally {
            store.lock().unlock();
        }
    }

    /** The smallest key after {@code key} (null stays null: no bound). */
    private static byte[] after(byte[] key) {
        return key == null ? null : Arrays.copyOf(key, key.length + 1);
    }

    /** Marks the tree read to the end: nothing more is captured or read. */
    void finish() {
        treeDone = true;
        captured.clear();
    }

    @Override
    public void close() {
        if (!closed) {
            store.closed(this);
        }
    }

    /** Drops everything; called by the store under its lock, when the iterator or the store closes. */
    void release() {
        closed = true;
        buffer.clear();
        finish();
    }
}
