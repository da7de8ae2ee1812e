package io.most.examples.cacheserver.protocol;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Factories of the RESP2 replies the commands give (Netty's {@link RedisMessage}s). */
public final class Replies {

    /** {@code +OK}. */
    public static final RedisMessage OK = new SimpleStringRedisMessage("OK");
    /** {@code +PONG}. */
    public static final RedisMessage PONG = new SimpleStringRedisMessage("PONG");
    /** The null bulk string {@code $-1}: a missing key. */
    public static final RedisMessage NIL = FullBulkStringRedisMessage.NULL_INSTANCE;
    /** {@code :0}. */
    public static final RedisMessage ZERO = new IntegerRedisMessage(0);
    /** {@code :1}. */
    public static final RedisMessage ONE = new IntegerRedisMessage(1);

    private Replies() {
    }

    /** A bulk string of {@code bytes}, or {@link #NIL} for null. */
    public static RedisMessage bulk(byte[] bytes) {
        if (bytes == null) {
            return NIL;
        }
        return bytes.length == 0 ? FullBulkStringRedisMessage.EMPTY_INSTANCE
                : new FullBulkStringRedisMessage(Unpooled.wrappedBuffer(bytes));
    }

    /** A bulk string of {@code text} in UTF-8. */
    public static RedisMessage bulk(String text) {
        return bulk(text.getBytes(StandardCharsets.UTF_8));
    }

    /** An integer reply. */
    public static RedisMessage integer(long value) {
        return value == 0 ? ZERO : value == 1 ? ONE : new IntegerRedisMessage(value);
    }

    /** A simple string {@code +text}. */
    public static RedisMessage simple(String text) {
        return new SimpleStringRedisMessage(text);
    }

    /**
     * An error {@code -text}; {@code text} starts with its code ({@code ERR ...}). Line breaks become
     * spaces, as Redis does: a reply is one line.
     */
    public static RedisMessage error(String text) {
        return new ErrorRedisMessage(text.replace('\r', ' ').replace('\n', ' '));
    }

    /** An array of replies. */
    public static RedisMessage array(List<RedisMessage> elements) {
        return elements.isEmpty() ? ArrayRedisMessage.EMPTY_INSTANCE : new ArrayRedisMessage(elements);
    }

    /** An array of bulk strings, {@link #NIL} for each null. */
    public static RedisMessage bulkArray(List<byte[]> values) {
        List<RedisMessage> out = new ArrayList<>(values.size());
        for (byte[] v : values) {
            out.add(bulk(v));
        }
        return array(out);
    }
}
