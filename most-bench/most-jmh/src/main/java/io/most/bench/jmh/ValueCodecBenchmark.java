package io.most.bench.jmh;

import io.most.cache.ValueCodec;
import io.most.cache.ValueCodecs;
import io.most.cache.chronicle.ChronicleBytesCodec;
import java.io.Serializable;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesMarshallable;
import net.openhft.chronicle.bytes.BytesOut;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * ns/op of encode + store of one small record (two longs, an int, a double and a 12-character string)
 * into native page memory, as the hybrid cache stores a value: {@link ValueCodec#encodedSize} then
 * {@link ValueCodec#encode} into a slice of a native 16 KiB page. Three codecs of the same record:
 * Java serialization ({@link ValueCodecs#serializable()}), a hand-written codec of fixed offsets, and
 * the Chronicle Bytes codec ({@link ChronicleBytesCodec}, writing through a zero-copy view of the
 * page). The fork runs with Chronicle Bytes' JVM flags (README, "Chronicle Bytes values").
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g", "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
        "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "--add-exports=java.base/jdk.internal.util=ALL-UNNAMED",
        "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED", "--add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED",
        "--add-opens=java.base/java.io=ALL-UNNAMED", "--add-opens=java.base/java.lang=ALL-UNNAMED",
        "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED",
        "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
        "-Dchronicle.analytics.disable=true"})
@State(Scope.Thread)
public class ValueCodecBenchmark {
    private static final int PAGE_BYTES = 16 * 1024;

    private final ValueCodec<Order> serialization = ValueCodecs.serializable();
    private final ValueCodec<Order> hand = new HandCodec();
    private final ValueCodec<Order> chronicle = new ChronicleBytesCodec<>(Order::new);
    private Arena arena;
    private MemorySegment page;
    private Order order;

    @Setup
    public void setUp() {
        arena = Arena.ofConfined();
        page = arena.allocate(PAGE_BYTES, 4096);
        order = new Order(42L, 7L, 3, 19.99, "SKU-00012345");
    }

    @TearDown
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public long javaSerialization() {
        return store(serialization);
    }

    @Benchmark
    public long handCodec() {
        return store(hand);
    }

    @Benchmark
    public long chronicleBytes() {
        return store(chronicle);
    }

    /** What the cache does to store a value: size it, then encode it into its place in the page. */
    private long store(ValueCodec<Order> codec) {
        int size = codec.encodedSize(order);
        codec.encode(order, page.asSlice(0, size));
        return size;
    }

    /** The small record: Serializable for Java serialization, BytesMarshallable (explicit fields) for Chronicle. */
    public static final class Order implements Serializable, BytesMarshallable {
        private static final long serialVersionUID = 1L;
        long id;
        long customer;
        int quantity;
        double price;
        String sku;

        /** An empty order for decoding. */
        public Order() {
        }

        Order(long id, long customer, int quantity, double price, String sku) {
            this.id = id;
            this.customer = customer;
            this.quantity = quantity;
            this.price = price;
            this.sku = sku;
        }

        @Override
        public void writeMarshallable(BytesOut<?> out) {
            out.writeLong(id);
            out.writeLong(customer);
            out.writeInt(quantity);
            out.writeDouble(price);
            out.writeUtf8(sku);
        }

        @Override
        public void readMarshallable(BytesIn<?> in) {
            id = in.readLong();
            customer = in.readLong();
            quantity = in.readInt();
            price = in.readDouble();
            sku = in.readUtf8();
        }
    }

    /** Fixed offsets: three longs-worth of numbers, then the string's length and UTF-8 bytes. */
    static final class HandCodec implements ValueCodec<Order> {
        private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
        private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
        private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED;
        private static final int HEADER = 8 + 8 + 4 + 8 + 4;

        @Override
        public int encodedSize(Order value) {
            return HEADER + utf8Length(value.sku);
        }

        @Override
        public void encode(Order value, MemorySegment target) {
            target.set(LONG, 0, value.id);
            target.set(LONG, 8, value.customer);
            target.set(INT, 16, value.quantity);
            target.set(DOUBLE, 20, value.price);
            byte[] sku = value.sku.getBytes(StandardCharsets.UTF_8);
            target.set(INT, 28, sku.length);
            MemorySegment.copy(sku, 0, target, ValueLayout.JAVA_BYTE, HEADER, sku.length);
        }

        @Override
        public Order decode(MemorySegment source) {
            int length = source.get(INT, 28);
            if (length < 0 || HEADER + length != source.byteSize()) {
                throw new IllegalArgumentException("not an encoded order: " + source.byteSize() + " bytes, string of "
                        + length);
            }
            byte[] sku = new byte[length];
            MemorySegment.copy(source, ValueLayout.JAVA_BYTE, HEADER, sku, 0, length);
            return new Order(source.get(LONG, 0), source.get(LONG, 8), source.get(INT, 16), source.get(DOUBLE, 20),
                    new String(sku, StandardCharsets.UTF_8));
        }

        /** UTF-8 bytes of {@code s} without encoding it (ASCII fast path, else encode). */
        private static int utf8Length(String s) {
            for (int i = 0; i < s.length(); i++) {
                if (s.charAt(i) >= 0x80) {
                    return s.getBytes(StandardCharsets.UTF_8).length;
                }
            }
            return s.length();
        }
    }
}
