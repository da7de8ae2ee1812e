package io.most.examples.cacheserver.protocol;

import io.most.examples.cacheserver.command.ServerStats;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.group.ChannelGroup;
import io.netty.util.AttributeKey;
import java.nio.charset.StandardCharsets;

/**
 * Admits at most {@code maxClients} connections at once: one more is told
 * {@code -ERR max number of clients reached} (Redis's reply) and closed before it reads anything.
 * Admitted connections join the server's channel group, which a shutdown walks. Shared by every
 * connection (first in each pipeline).
 */
@ChannelHandler.Sharable
final class ClientLimiter extends ChannelInboundHandlerAdapter {
    private static final AttributeKey<Boolean> ADMITTED = AttributeKey.valueOf("most.admitted");
    private static final byte[] REFUSAL = "-ERR max number of clients reached\r\n".getBytes(StandardCharsets.US_ASCII);

    private final int maxClients;
    private final ServerStats stats;
    private final ChannelGroup clients;

    ClientLimiter(int maxClients, ServerStats stats, ChannelGroup clients) {
        this.maxClients = maxClients;
        this.stats = stats;
        this.clients = clients;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (stats.connectedClients().incrementAndGet() > maxClients) {
            stats.connectedClients().decrementAndGet();
            stats.connectionRejected();
            ctx.channel().config().setAutoRead(false);
            ctx.writeAndFlush(Unpooled.wrappedBuffer(REFUSAL)).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        ctx.channel().attr(ADMITTED).set(Boolean.TRUE);
        stats.connectionReceived();
        clients.add(ctx.channel());
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (ctx.channel().attr(ADMITTED).getAndSet(null) != null) {
            stats.connectedClients().decrementAndGet();
            ctx.fireChannelInactive();
        }
    }
}
