package io.most.examples.cacheserver.protocol;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.redis.ArrayHeaderRedisMessage;
import io.netty.handler.codec.redis.BulkStringHeaderRedisMessage;
import io.netty.handler.codec.redis.BulkStringRedisContent;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.InlineCommandRedisMessage;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.LastBulkStringRedisContent;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;
import io.netty.util.ReferenceCountUtil;

/**
 * Checks the decoder's pieces before the aggregators buffer them: a request is an array of bulk
 * strings (or an inline line) of at most {@code maxArrayLength} arguments, each at most
 * {@code maxBulkBytes}, {@code maxRequestBytes} in all. Anything else fails the connection with a
 * {@link ProtocolException} carrying Redis's reason ({@code invalid multibulk length},
 * {@code invalid bulk length}, {@code expected '$', got '*'}), before the bytes are accumulated: an
 * oversized request costs the server nothing. One per connection (it tracks the request in progress).
 */
final class RequestGuard extends ChannelInboundHandlerAdapter {
    /** Netty's words for a malformed number in a length line. */
    private static final java.util.regex.Pattern BAD_NUMBER = java.util.regex.Pattern.compile(
            "bad byte in number|no number to parse|too many characters to be a valid RESP Integer|length: ");
    private final int maxArrayLength;
    private final int maxBulkBytes;
    private final long maxRequestBytes;
    /** Arguments still to come in the current request; 0 between requests. */
    private long remaining;
    private long requestBytes;
    private boolean failed;

    RequestGuard(int maxArrayLength, int maxBulkBytes, long maxRequestBytes) {
        this.maxArrayLength = maxArrayLength;
        this.maxBulkBytes = maxBulkBytes;
        this.maxRequestBytes = maxRequestBytes;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (failed) {
            ReferenceCountUtil.release(msg); // the connection is closing: drop what is still decoded
            return;
        }
        try {
            check(msg);
        } catch (ProtocolException e) {
            failed = true;
            ReferenceCountUtil.release(msg);
            ctx.fireExceptionCaught(e);
            return;
        }
        ctx.fireChannelRead(msg);
    }

    /**
     * Netty's decoder says what it found wrong in a number, not which header held it. Redis names the
     * header: inside a request the bad number was an argument's length ({@code invalid bulk length}),
     * between requests the request's own ({@code invalid multibulk length}).
     */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Throwable reason = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        String message = String.valueOf(reason.getMessage());
        if (!failed && cause instanceof DecoderException && BAD_NUMBER.matcher(message).lookingAt()) {
            failed = true;
            ctx.fireExceptionCaught(new ProtocolException(remaining > 0 ? "invalid bulk length"
                    : "invalid multibulk length"));
            return;
        }
        ctx.fireExceptionCaught(cause);
    }

    private void check(Object msg) {
        if (msg instanceof ArrayHeaderRedisMessage header) {
            if (remaining > 0) {
                throw new ProtocolException("expected '$', got '*'");
            }
            if (header.length() > maxArrayLength) {
                throw new ProtocolException("invalid multibulk length");
            }
            remaining = Math.max(0, header.length());
            requestBytes = 0;
        } else if (msg instanceof FullBulkStringRedisMessage full) {
            // "$0" and "$-1" come whole, without a header
            if (remaining == 0) {
                throw new ProtocolException("expected '*', got '$'");
            }
            if (full.isNull()) {
                throw new ProtocolException("invalid bulk length");
            }
            remaining--;
        } else if (msg instanceof BulkStringHeaderRedisMessage header) {
            if (remaining == 0) {
                throw new ProtocolException("expected '*', got '$'");
            }
            if (header.bulkStringLength() > maxBulkBytes) {
                throw new ProtocolException("invalid bulk length");
            }
            requestBytes += header.bulkStringLength();
            if (requestBytes > maxRequestBytes) {
                throw new ProtocolException("request larger than " + maxRequestBytes + " bytes");
            }
        } else if (msg instanceof LastBulkStringRedisContent) {
            remaining--;
        } else if (msg instanceof BulkStringRedisContent) {
            // a middle chunk of an argument whose length the header announced
            return;
        } else if (remaining > 0) {
            // a simple string, error, integer or inline line where an argument was due
            throw new ProtocolException("expected '$', got '" + typeChar(msg) + "'");
        }
    }

    private static char typeChar(Object msg) {
        if (msg instanceof SimpleStringRedisMessage) {
            return '+';
        }
        if (msg instanceof ErrorRedisMessage) {
            return '-';
        }
        if (msg instanceof IntegerRedisMessage) {
            return ':';
        }
        String line = msg instanceof InlineCommandRedisMessage inline ? inline.content() : "";
        return line.isEmpty() ? ' ' : line.charAt(0);
    }
}
