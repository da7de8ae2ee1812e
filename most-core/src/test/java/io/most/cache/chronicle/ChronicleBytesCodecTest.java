package io.most.cache.chronicle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.most.cache.CacheConfig;
import io.most.cache.MostCache;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesMarshallable;
import net.openhft.chronicle.bytes.BytesOut;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Chronicle Bytes codec through both engines. Runs in most-core's {@code chronicle-codec}
 * surefire execution, on the class path with the JVM flags Chronicle needs (see the codec's javadoc).
 */
class ChronicleBytesCodecTest {
    @TempDir
    Path dir;

    /** A small trade record, marshalled by hand. */
    static final class Trade implements BytesMarshallable {
        long id;
        double price;
        String symbol;

        Trade() {
        }

        Trade(long id, double price, String symbol) {
            this.id = id;
            this.price = price;
            this.symbol = symbol;
        }

        @Override
        public void writeMarshallable(BytesOut<?> out) {
            out.writeLong(id);
            out.writeDouble(price);
            out.writeUtf8(symbol);
        }

        @Override
        public void readMarshallable(BytesIn<?> in) {
            id = in.readLong();
            price = in.readDouble();
            symbol = in.readUtf8();
        }
    }

    @Test
    void tradesRoundTripThroughBucketPagesAndRegions() {
        ChronicleBytesCodec<Trade> codec = new ChronicleBytesCodec<>(Trade::new);
        try (MostCache cache = MostCache.open(CacheConfig.builder().directory(dir).dramBytes(16 * 4096)
                .smallItemBytes(16 * 4096).largeItemBytes(4 * 65536).regionSize(65536).build())) {
            cache.put(key(1), new Trade(1, 101.25, "MOST"), codec);
            cache.put(key(2), new Trade(2, 7.5, "X".repeat(5000)), codec); // over the large-item threshold
            Trade small = cache.get(key(1), codec);
            assertEquals(1, small.id);
            assertEquals(101.25, small.price);
            assertEquals("MOST", small.symbol);
            Trade large = cache.get(key(2), codec);
            assertEquals(5000, large.symbol.length());
            assertNull(cache.get(key(3), codec));
        }
    }

    @Test
    void encodesExactlyTheSizedBytesIntoNativeMemory() {
        ChronicleBytesCodec<Trade> codec = new ChronicleBytesCodec<>(Trade::new);
        Trade t = new Trade(9, 1.5, "abc");
        int size = codec.encodedSize(t);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment target = arena.allocate(size);
            codec.encode(t, target);
            Trade back = codec.decode(MemorySegment.ofArray(target.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE)));
            assertEquals("abc", back.symbol);
            assertEquals(9, back.id);
        }
    }

    private static byte[] key(int i) {
        return ("trade-" + i).getBytes(StandardCharsets.UTF_8);
    }
}
