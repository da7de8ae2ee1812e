package io.most.cache.chronicle;

import io.most.cache.ValueCodec;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.function.Supplier;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesMarshallable;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.PointerBytesStore;

/**
 * A {@link ValueCodec} for Chronicle Bytes' {@link BytesMarshallable} values: {@code writeMarshallable}
 * writes straight into the cache's page or region memory through a zero-copy view of it
 * ({@code BytesStore.wrap(address, size)}), and {@code readMarshallable} reads from one.
 *
 * <p>Sizing runs {@code writeMarshallable} once into a per-thread scratch buffer (the cache must know
 * an item's size before it places it); the store then writes again, into the page itself. So
 * {@code writeMarshallable} must write the same bytes twice for an unchanged value.
 *
 * <p><b>JVM flags.</b> Chronicle Bytes uses {@code sun.misc.Unsafe} and JDK internals. On JDK 25 run
 * with {@code --add-exports} of {@code java.base/jdk.internal.misc}, {@code java.base/jdk.internal.ref},
 * {@code java.base/jdk.internal.util}, {@code java.base/sun.nio.ch}, {@code jdk.unsupported/sun.misc};
 * {@code --add-opens} of {@code java.base/java.io}, {@code java.lang}, {@code java.lang.reflect},
 * {@code java.util}; {@code --enable-native-access=ALL-UNNAMED},
 * {@code --sun-misc-unsafe-memory-access=allow}, and {@code -Dchronicle.analytics.disable=true} (else it
 * reports usage over the network). A JDK that denies {@code sun.misc.Unsafe} memory access (as
 * {@code --sun-misc-unsafe-memory-access=deny} does today, and a future JDK will by default) makes
 * Chronicle Bytes fail at class initialisation: this codec then cannot be used.
 *
 * @param <V> the value type
 */
public final class ChronicleBytesCodec<V extends BytesMarshallable> implements ValueCodec<V> {
    private static final ThreadLocal<Bytes<?>> SCRATCH = ThreadLocal.withInitial(() -> Bytes.allocateElasticDirect(256));
    private final Supplier<? extends V> factory;

    /** A codec that decodes into fresh instances from {@code factory}. */
    public ChronicleBytesCodec(Supplier<? extends V> factory) {
        this.factory = Objects.requireNonNull(factory, "factory");
    }

    @Override
    public int encodedSize(V value) {
        Bytes<?> scratch = SCRATCH.get();
        scratch.clear();
        value.writeMarshallable(scratch);
        return Math.toIntExact(scratch.readRemaining());
    }

    @Override
    public void encode(V value, MemorySegment target) {
        if (!target.isNative()) {
            throw new IllegalArgumentException("the Chronicle codec writes into native page or region memory only");
        }
        PointerBytesStore store = BytesStore.wrap(target.address(), target.byteSize());
        Bytes<?> out = store.bytesForWrite();
        try {
            value.writeMarshallable(out);
            if (out.writePosition() != target.byteSize()) {
                throw new IllegalStateException("writeMarshallable wrote " + out.writePosition() + " bytes after sizing "
                        + target.byteSize() + ": the value changed while it was stored");
            }
        } finally {
            out.releaseLast();
            store.releaseLast();
        }
    }

    @Override
    public V decode(MemorySegment source) {
        if (!source.isNative()) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment copy = arena.allocate(Math.max(1, source.byteSize())).asSlice(0, source.byteSize());
                copy.copyFrom(source);
                return decode(copy);
            }
        }
        PointerBytesStore store = BytesStore.wrap(source.address(), source.byteSize());
        Bytes<?> in = store.bytesForRead();
        try {
            V value = factory.get();
            value.readMarshallable(in);
            return value;
        } finally {
            in.releaseLast();
            store.releaseLast();
        }
    }
}
