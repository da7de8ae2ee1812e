package io.most.examples.cacheserver.protocol;

import io.most.examples.cacheserver.command.ServerStats;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * Redis's protected mode: while the default user has no password, a client that is not on the loopback
 * interface gets Redis's {@code -DENIED} error, word for word, and is closed before anything it sends
 * is read. Redis does this so that a server bound beyond loopback by mistake is not open to the world.
 */
final class ProtectedModeRefusal extends ChannelInboundHandlerAdapter {
    /** Redis 7.0's text (networking.c), byte for byte. */
    static final byte[] DENIED = ("-DENIED Redis is running in protected mode because protected mode is enabled and"
            + " no password is set for the default user. In this mode connections are only accepted from the loopback"
            + " interface. If you want to connect from external computers to Redis you may adopt one of the following"
            + " solutions: 1) Just disable protected mode sending the command 'CONFIG SET protected-mode no' from the"
            + " loopback interface by connecting to Redis from the same host the server is running, however MAKE SURE"
            + " Redis is not publicly accessible from internet if you do so. Use CONFIG REWRITE to make this change"
            + " permanent. 2) Alternatively you can just disable the protected mode by editing the Redis configuration"
            + " file, and setting the protected mode option to 'no', and then restarting the server. 3) If you started"
            + " the server manually just for testing, restart it with the '--protected-mode no' option. 4) Setup a an"
            + " authentication password for the default user. NOTE: You only need to do one of the above things in"
            + " order for the server to start accepting connections from the outside.\r\n")
            .getBytes(StandardCharsets.US_ASCII);

    private final ServerStats stats;

    ProtectedModeRefusal(ServerStats stats) {
        this.stats = stats;
    }

    /** Whether a client at {@code remote} is refused: it is not on the loopback interface. */
    static boolean refuses(InetSocketAddress remote) {
        return remote == null || remote.getAddress() == null || !remote.getAddress().isLoopbackAddress();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        stats.connectionRejected();
        ctx.channel().config().setAutoRead(false);
        ctx.writeAndFlush(Unpooled.wrappedBuffer(DENIED)).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg);
    }
}
