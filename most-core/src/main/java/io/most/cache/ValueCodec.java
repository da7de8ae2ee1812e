package io.most.cache;

import java.lang.foreign.MemorySegment;

/**
 * Turns values of type {@code V} into bytes written straight into the cache's page or region memory,
 * and back, so that storing an object needs no intermediate {@code byte[]}. Built-ins are in
 * {@link ValueCodecs}.
 *
 * <p>A codec must be stateless (or thread-safe): one instance serves every thread. {@link #encode}
 * must write exactly {@link #encodedSize} bytes for the same value.
 *
 * @param <V> the value type
 */
public interface ValueCodec<V> {

    /** The bytes {@link #encode} writes for {@code value}. */
    int encodedSize(V value);

    /**
     * Writes {@code value} into {@code target}, whose size is {@link #encodedSize(Object)}. The
     * segment is page or region memory of the cache, valid only during the call.
     */
    void encode(V value, MemorySegment target);

    /**
     * Reads a value from {@code source}, exactly the bytes an {@link #encode} wrote. The segment is
     * valid only during the call: copy what the value keeps.
     *
     * @throws IllegalArgumentException if the bytes are not a value of this codec
     */
    V decode(MemorySegment source);
}
