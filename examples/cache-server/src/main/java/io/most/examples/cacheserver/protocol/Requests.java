package io.most.examples.cacheserver.protocol;

import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.InlineCommandRedisMessage;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Turns an aggregated request into its arguments. */
final class Requests {

    private Requests() {
    }

    /**
     * The arguments of {@code msg} (the command name first), empty for an empty request ({@code *0},
     * a blank line) which Redis ignores. The message is not released.
     *
     * @throws ProtocolException for a request that is not an array of bulk strings or a valid inline line
     */
    static List<byte[]> arguments(RedisMessage msg) {
        if (msg instanceof ArrayRedisMessage array) {
            if (array.isNull()) {
                return List.of();
            }
            List<byte[]> args = new ArrayList<>(array.children().size());
            for (RedisMessage child : array.children()) {
                if (!(child instanceof FullBulkStringRedisMessage bulk) || bulk.isNull()) {
                    throw new ProtocolException("invalid bulk length"); // RequestGuard lets none through
                }
                args.add(ByteBufUtil.getBytes(bulk.content()));
            }
            return args;
        }
        // Redis reads any line that does not start a multibulk as an inline command: "+PING" is a command
        // named "+PING"
        String line;
        if (msg instanceof InlineCommandRedisMessage inline) {
            line = inline.content();
        } else if (msg instanceof SimpleStringRedisMessage simple) {
            line = "+" + simple.content();
        } else if (msg instanceof ErrorRedisMessage error) {
            line = "-" + error.content();
        } else if (msg instanceof IntegerRedisMessage integer) {
            line = ":" + integer.value();
        } else {
            throw new ProtocolException("expected '*', got " + msg.getClass().getSimpleName());
        }
        return InlineParser.split(line.getBytes(StandardCharsets.UTF_8));
    }
}
