package io.most.examples.cacheserver.protocol;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.redis.BulkStringHeaderRedisMessage;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.LastBulkStringRedisContent;

/**
 * The common case of Netty's bulk-string aggregation without its cost: when the decoder had a whole
 * argument in one read it emits a header and then one last content holding every byte, and this
 * handler turns the pair into a {@link FullBulkStringRedisMessage} over that same buffer.
 * {@link io.netty.handler.codec.redis.RedisBulkStringAggregator} (next in the pipeline) lets whole
 * messages through and still aggregates an argument that arrived in pieces; without this step it
 * builds a composite buffer for every argument, a large share of the server's allocations per
 * request. One per connection (it holds the header of the argument in progress).
 */
final class WholeBulkStrings extends ChannelInboundHandlerAdapter {
    /** The header just read, not passed on yet; null between arguments. Holds no buffer. */
    private BulkStringHeaderRedisMessage header;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof BulkStringHeaderRedisMessage h) {
            flushHeader(ctx);
            header = h;
            return;
        }
        if (header != null && msg instanceof LastBulkStringRedisContent last
                && !(msg instanceof FullBulkStringRedisMessage)
                && last.content().readableBytes() == header.bulkStringLength()) {
            header = null;
            // the content's buffer changes holder: its reference passes on, nothing to retain or release
            ctx.fireChannelRead(new FullBulkStringRedisMessage(last.content()));
            return;
        }
        flushHeader(ctx);
        ctx.fireChannelRead(msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        header = null;
        super.channelInactive(ctx);
    }

    /** Passes on a header whose content came in pieces: the aggregator after this one joins them. */
    private void flushHeader(ChannelHandlerContext ctx) {
        if (header != null) {
            BulkStringHeaderRedisMessage h = header;
            header = null;
            ctx.fireChannelRead(h);
        }
    }
}
