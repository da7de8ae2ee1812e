package io.most.examples.spring;

import io.most.Page;
import io.most.PageStore;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.springframework.stereotype.Repository;

/**
 * Short text notes, one per page of the {@link PageStore} bean, used directly: a note is its UTF-8
 * length (an int) followed by its bytes in the page's payload, and its id is the page id. The store
 * is thread-safe and latches each page, so this class needs no locking of its own.
 */
@Repository
public class NoteRepository {
    private final PageStore store;

    /** Notes in {@code store}, the starter's bean. */
    public NoteRepository(PageStore store) {
        this.store = store;
    }

    /** The longest note in bytes: what fits in one page after the length. */
    public int maxBytes() {
        return store.payloadSize() - Integer.BYTES;
    }

    /**
     * Saves {@code text} in a new page and returns its id. Durable at the next checkpoint (the
     * starter checkpoints when the application shuts down).
     *
     * @throws IllegalArgumentException if the text does not fit in one page
     */
    public long save(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > maxBytes()) {
            throw new IllegalArgumentException("a note holds at most " + maxBytes() + " bytes of UTF-8, got "
                    + bytes.length);
        }
        long id = store.allocate();
        try (Page page = store.write(id)) {
            MemorySegment payload = page.payload();
            payload.set(ValueLayout.JAVA_INT_UNALIGNED, 0, bytes.length);
            MemorySegment.copy(bytes, 0, payload, ValueLayout.JAVA_BYTE, Integer.BYTES, bytes.length);
            page.markDirty(0); // no write-ahead log here: LSN 0
        }
        return id;
    }

    /** The note {@code id}, if there is one. */
    public Optional<String> find(long id) {
        if (id < 0 || id >= store.pageCapacity() || !store.isAllocated(id)) {
            return Optional.empty();
        }
        try (Page page = store.read(id)) {
            MemorySegment payload = page.payload();
            int length = payload.get(ValueLayout.JAVA_INT_UNALIGNED, 0);
            byte[] bytes = new byte[length];
            MemorySegment.copy(payload, ValueLayout.JAVA_BYTE, Integer.BYTES, bytes, 0, length);
            return Optional.of(new String(bytes, StandardCharsets.UTF_8));
        }
    }
}
