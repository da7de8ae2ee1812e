package io.most.examples.cacheserver.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.redis.RedisEncoder;
import io.netty.handler.codec.redis.RedisMessage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The one-buffer bulk replies are byte for byte what Netty's RedisEncoder writes, in one buffer each. */
class BulkReplyEncoderTest {

    @Test
    void repliesAreTheBytesTheRedisEncoderWrites() {
        List<Supplier<RedisMessage>> replies = List.of(
                () -> Replies.bulk("hello".getBytes(StandardCharsets.US_ASCII)),
                () -> Replies.bulk((byte[]) null),
                () -> Replies.bulk(new byte[0]),
                () -> Replies.bulk(filled(4567)),
                () -> Replies.bulk(filled(BulkReplyEncoder.MAX_COPIED_BYTES + 1)),
                () -> Replies.bulkArray(Arrays.asList("a".getBytes(StandardCharsets.US_ASCII), null)),
                () -> Replies.integer(42),
                () -> Replies.OK);
        for (Supplier<RedisMessage> reply : replies) {
            byte[] netty = encode(reply.get(), new RedisEncoder());
            byte[] ours = encode(reply.get(), new RedisEncoder(), new BulkReplyEncoder());
            assertArrayEquals(netty, ours, new String(netty, StandardCharsets.ISO_8859_1));
        }
    }

    @Test
    void aSmallBulkReplyIsOneBuffer() {
        EmbeddedChannel ch = new EmbeddedChannel(new RedisEncoder(), new BulkReplyEncoder());
        ch.writeOutbound(Replies.bulk("value".getBytes(StandardCharsets.US_ASCII)));
        ByteBuf out = ch.readOutbound();
        assertEquals("$5\r\nvalue\r\n", out.toString(StandardCharsets.US_ASCII));
        out.release();
        Object more = ch.readOutbound();
        assertNull(more, "nothing but the one buffer");
        assertFalse(ch.finish());
    }

    private static byte[] encode(RedisMessage msg, ChannelHandler... handlers) {
        EmbeddedChannel ch = new EmbeddedChannel(handlers);
        ch.writeOutbound(msg);
        List<byte[]> parts = new ArrayList<>();
        ByteBuf buf;
        while ((buf = ch.readOutbound()) != null) {
            parts.add(ByteBufUtil.getBytes(buf));
            buf.release();
        }
        ch.finish();
        int size = parts.stream().mapToInt(p -> p.length).sum();
        byte[] all = new byte[size];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, all, at, p.length);
            at += p.length;
        }
        return all;
    }

    private static byte[] filled(int n) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) 'x');
        return b;
    }
}
