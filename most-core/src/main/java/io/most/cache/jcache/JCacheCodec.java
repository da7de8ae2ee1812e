package io.most.cache.jcache;

import io.most.cache.ValueCodec;
import io.most.cache.ValueCodecs;
import java.lang.foreign.MemorySegment;

/**
 * Keys and values to and from bytes with Java serialization (classes resolved through the cache
 * manager's class loader): the store holds them by value.
 */
final class JCacheCodec<K, V> {
    private final ValueCodec<Object> codec;

    JCacheCodec(ClassLoader classLoader) {
        this.codec = ValueCodecs.serializable(classLoader);
    }

    byte[] encode(Object o) {
        byte[] bytes = new byte[codec.encodedSize(o)];
        codec.encode(o, MemorySegment.ofArray(bytes));
        return bytes;
    }

    @SuppressWarnings("unchecked")
    V valueOf(StoredEntry s) {
        return (V) codec.decode(MemorySegment.ofArray(s.bytes()).asSlice(StoredEntry.HEADER));
    }

    @SuppressWarnings("unchecked")
    K keyOf(byte[] bytes) {
        return (K) codec.decode(MemorySegment.ofArray(bytes));
    }

    /** A copy of {@code value} as a reader of the store would get it (store by value). */
    V copy(V value) {
        @SuppressWarnings("unchecked")
        V copy = (V) codec.decode(MemorySegment.ofArray(encode(value)));
        return copy;
    }
}
