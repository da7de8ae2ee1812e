package io.most.examples.cacheserver.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;

/**
 * Writes a bulk-string reply ({@code GET}'s) as one buffer: {@code $<length>\r\n<bytes>\r\n}. Netty's
 * {@link io.netty.handler.codec.redis.RedisEncoder}, which encodes every other reply (arrays of bulk
 * strings included), writes a bulk string as three buffers (header, content, line end), and every
 * buffer of a gathering socket write costs the JDK its own bookkeeping: with pipelined requests that is
 * three per reply instead of one. Sits after the RedisEncoder in the pipeline, so it sees replies first.
 */
final class BulkReplyEncoder extends MessageToByteEncoder<FullBulkStringRedisMessage> {
    private static final byte[] NULL_REPLY = {'$', '-', '1', '\r', '\n'};
    private static final int CRLF = ('\r' << 8) | '\n';
    /** '$', up to 10 digits of an int length, and two line ends. */
    private static final int FRAMING_BYTES = 1 + 10 + 2 + 2;

    /**
     * Bulk strings up to this many bytes are copied into the one buffer; longer ones go to the
     * RedisEncoder, which passes their content on without a copy.
     */
    static final int MAX_COPIED_BYTES = 16 * 1024;

    @Override
    public boolean acceptOutboundMessage(Object msg) throws Exception {
        return super.acceptOutboundMessage(msg) && (((FullBulkStringRedisMessage) msg).isNull()
                || ((FullBulkStringRedisMessage) msg).content().readableBytes() <= MAX_COPIED_BYTES);
    }

    @Override
    protected ByteBuf allocateBuffer(ChannelHandlerContext ctx, FullBulkStringRedisMessage msg, boolean preferDirect) {
        int size = msg.isNull() ? NULL_REPLY.length : FRAMING_BYTES + msg.content().readableBytes();
        return preferDirect ? ctx.alloc().ioBuffer(size) : ctx.alloc().heapBuffer(size);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, FullBulkStringRedisMessage msg, ByteBuf out) {
        if (msg.isNull()) {
            out.writeBytes(NULL_REPLY);
            return;
        }
        ByteBuf content = msg.content();
        out.writeByte('$');
        writeDigits(out, content.readableBytes());
        out.writeShort(CRLF);
        if (content.hasArray()) {
            // straight from the array: a buffer-to-buffer copy would wrap the array in a ByteBuffer first
            out.writeBytes(content.array(), content.arrayOffset() + content.readerIndex(), content.readableBytes());
        } else {
            out.writeBytes(content, content.readerIndex(), content.readableBytes());
        }
        out.writeShort(CRLF);
    }

    /** The decimal digits of {@code n} >= 0, without a string. */
    private static void writeDigits(ByteBuf out, int n) {
        int divisor = 1;
        while (n / divisor >= 10) {
            divisor *= 10;
        }
        for (; divisor > 0; divisor /= 10) {
            out.writeByte('0' + n / divisor % 10);
        }
    }
}
