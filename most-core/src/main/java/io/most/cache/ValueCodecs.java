package io.most.cache;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The built-in {@link ValueCodec}s: byte arrays, strings (UTF-8), primitives (8 or 4 bytes,
 * little-endian) and {@link Serializable} objects (Java serialization).
 *
 * <p>Fixed-size and string codecs write straight into the page or region. Java serialization cannot
 * know its size before it runs, so {@link #serializable} serializes once into a buffer kept per
 * thread between {@code encodedSize} and {@code encode} of the same value; prefer a hand-written codec
 * (or the Chronicle Bytes one) for hot paths.
 */
public final class ValueCodecs {
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfDouble DOUBLE =
            ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Byte arrays as they are. */
    public static final ValueCodec<byte[]> BYTES = new ValueCodec<>() {
        @Override
        public int encodedSize(byte[] value) {
            return value.length;
        }

        @Override
        public void encode(byte[] value, MemorySegment target) {
            MemorySegment.copy(value, 0, target, ValueLayout.JAVA_BYTE, 0, value.length);
        }

        @Override
        public byte[] decode(MemorySegment source) {
            return SegmentBytes.copyOf(source);
        }
    };

    /** Strings as UTF-8 (ASCII strings are written without an intermediate array). */
    public static final ValueCodec<String> STRING = new ValueCodec<>() {
        @Override
        public int encodedSize(String value) {
            int length = value.length();
            for (int i = 0; i < length; i++) {
                if (value.charAt(i) >= 0x80) {
                    return value.getBytes(StandardCharsets.UTF_8).length;
                }
            }
            return length;
        }

        @Override
        public void encode(String value, MemorySegment target) {
            if (target.byteSize() == value.length()) { // ASCII: one byte per char
                for (int i = 0; i < value.length(); i++) {
                    target.set(ValueLayout.JAVA_BYTE, i, (byte) value.charAt(i));
                }
            } else {
                byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
                MemorySegment.copy(bytes, 0, target, ValueLayout.JAVA_BYTE, 0, bytes.length);
            }
        }

        @Override
        public String decode(MemorySegment source) {
            return new String(source.toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
        }
    };

    /** Longs in 8 bytes. */
    public static final ValueCodec<Long> LONG_VALUE = new Fixed<>(8) {
        @Override
        public void encode(Long value, MemorySegment target) {
            target.set(LONG, 0, value);
        }

        @Override
        Long read(MemorySegment source) {
            return source.get(LONG, 0);
        }
    };

    /** Integers in 4 bytes. */
    public static final ValueCodec<Integer> INT_VALUE = new Fixed<>(4) {
        @Override
        public void encode(Integer value, MemorySegment target) {
            target.set(INT, 0, value);
        }

        @Override
        Integer read(MemorySegment source) {
            return source.get(INT, 0);
        }
    };

    /** Doubles in 8 bytes. */
    public static final ValueCodec<Double> DOUBLE_VALUE = new Fixed<>(8) {
        @Override
        public void encode(Double value, MemorySegment target) {
            target.set(DOUBLE, 0, value);
        }

        @Override
        Double read(MemorySegment source) {
            return source.get(DOUBLE, 0);
        }
    };

    private ValueCodecs() {
    }

    /** Java serialization, resolving classes through the thread's context class loader (or this class's). */
    public static <V extends Serializable> ValueCodec<V> serializable() {
        return new SerializableCodec<>(null);
    }

    /** Java serialization, resolving classes through {@code loader}. */
    public static <V> ValueCodec<V> serializable(ClassLoader loader) {
        return new SerializableCodec<>(Objects.requireNonNull(loader, "loader"));
    }

    /** A codec of values of one size. */
    private abstract static class Fixed<V> implements ValueCodec<V> {
        private final int size;

        Fixed(int size) {
            this.size = size;
        }

        @Override
        public int encodedSize(V value) {
            return size;
        }

        @Override
        public V decode(MemorySegment source) {
            if (source.byteSize() != size) {
                throw new IllegalArgumentException("a value of " + source.byteSize() + " bytes is not one of this "
                        + size + "-byte codec");
            }
            return read(source);
        }

        abstract V read(MemorySegment source);
    }

    /** Java serialization; see the class comment on its per-thread buffer. */
    private static final class SerializableCodec<V> implements ValueCodec<V> {
        /** The last value sized on this thread and its bytes, reused by the encode that follows. */
        private static final ThreadLocal<Object[]> LAST = ThreadLocal.withInitial(() -> new Object[2]);
        private final ClassLoader loader;

        SerializableCodec(ClassLoader loader) {
            this.loader = loader;
        }

        @Override
        public int encodedSize(V value) {
            byte[] bytes = serialize(value);
            Object[] last = LAST.get();
            last[0] = value;
            last[1] = bytes;
            return bytes.length;
        }

        @Override
        public void encode(V value, MemorySegment target) {
            Object[] last = LAST.get();
            byte[] bytes = last[0] == value ? (byte[]) last[1] : serialize(value);
            last[0] = null;
            last[1] = null;
            MemorySegment.copy(bytes, 0, target, ValueLayout.JAVA_BYTE, 0, bytes.length);
        }

        @Override
        public V decode(MemorySegment source) {
            try (ObjectInputStream in = new LoaderObjectInputStream(new SegmentInputStream(source), loader())) {
                @SuppressWarnings("unchecked")
                V value = (V) in.readObject();
                return value;
            } catch (IOException | ClassNotFoundException e) {
                throw new IllegalArgumentException("cannot deserialize a cached value: " + e, e);
            }
        }

        private ClassLoader loader() {
            if (loader != null) {
                return loader;
            }
            ClassLoader context = Thread.currentThread().getContextClassLoader();
            return context != null ? context : ValueCodecs.class.getClassLoader();
        }

        static byte[] serialize(Object value) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
            try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
                out.writeObject(value);
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot serialize a value of " + value.getClass().getName() + ": " + e,
                        e);
            }
            return bytes.toByteArray();
        }
    }

    /** Reads a segment as a stream. */
    private static final class SegmentInputStream extends InputStream {
        private final MemorySegment source;
        private long position;

        SegmentInputStream(MemorySegment source) {
            this.source = source;
        }

        @Override
        public int read() {
            return position < source.byteSize() ? source.get(ValueLayout.JAVA_BYTE, position++) & 0xFF : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            long left = source.byteSize() - position;
            if (left <= 0) {
                return -1;
            }
            int n = (int) Math.min(len, left);
            MemorySegment.copy(source, ValueLayout.JAVA_BYTE, position, b, off, n);
            position += n;
            return n;
        }
    }

    /** Resolves classes through a given loader (as JCache requires: the cache manager's). */
    private static final class LoaderObjectInputStream extends ObjectInputStream {
        private final ClassLoader loader;

        LoaderObjectInputStream(InputStream in, ClassLoader loader) throws IOException {
            super(in);
            this.loader = loader;
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            try {
                return Class.forName(desc.getName(), false, loader);
            } catch (ClassNotFoundException e) {
                return super.resolveClass(desc);
            }
        }
    }
}
