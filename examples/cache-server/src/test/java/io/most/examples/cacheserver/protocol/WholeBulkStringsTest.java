package io.most.examples.cacheserver.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.FixedRedisMessagePool;
import io.netty.handler.codec.redis.RedisArrayAggregator;
import io.netty.handler.codec.redis.RedisBulkStringAggregator;
import io.netty.handler.codec.redis.RedisDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The decoding chain of the server's pipeline with and without pieces: a request read whole and one
 * that arrives a byte at a time decode to the same arguments, and every buffer is released.
 */
class WholeBulkStringsTest {
    private static final String SET = "*3\r\n$3\r\nSET\r\n$7\r\nkey:001\r\n$10\r\n0123456789\r\n";
    private static final String PIPELINE = SET + "*2\r\n$3\r\nGET\r\n$0\r\n\r\n" + "*1\r\n$4\r\nPING\r\n";

    @Test
    void aRequestReadWholeDecodesToItsArguments() {
        assertEquals(List.of(List.of("SET", "key:001", "0123456789"), List.of("GET", ""), List.of("PING")),
                decode(List.of(PIPELINE)));
    }

    @Test
    void argumentsSplitAcrossReadsAreStillJoined() {
        List<String> bytes = new ArrayList<>();
        for (char c : PIPELINE.toCharArray()) {
            bytes.add(String.valueOf(c));
        }
        assertEquals(decode(List.of(PIPELINE)), decode(bytes));
        // split in the middle of the value only, after the header: the header waits for its content
        int cut = PIPELINE.indexOf("01234") + 3;
        assertEquals(decode(List.of(PIPELINE)), decode(List.of(PIPELINE.substring(0, cut), PIPELINE.substring(cut))));
    }

    /** Feeds {@code reads} through the decoding chain; returns each request's arguments. */
    private static List<List<String>> decode(List<String> reads) {
        EmbeddedChannel ch = new EmbeddedChannel(new RedisDecoder(1024, FixedRedisMessagePool.INSTANCE, true),
                new WholeBulkStrings(), new RedisBulkStringAggregator(), new RedisArrayAggregator());
        List<ByteBuf> sent = new ArrayList<>();
        for (String read : reads) {
            ByteBuf buf = Unpooled.copiedBuffer(read, StandardCharsets.ISO_8859_1);
            sent.add(buf.retain());
            ch.writeInbound(buf);
        }
        List<List<String>> requests = new ArrayList<>();
        ArrayRedisMessage msg;
        while ((msg = ch.readInbound()) != null) {
            requests.add(Requests.arguments(msg).stream().map(b -> new String(b, StandardCharsets.ISO_8859_1)).toList());
            msg.release();
        }
        assertNull(ch.readInbound());
        assertFalse(ch.finish());
        for (ByteBuf buf : sent) {
            assertEquals(1, buf.refCnt(), "only the test's own reference is left: no argument leaked");
            buf.release();
        }
        return requests;
    }
}
