package io.most.examples.cacheserver.protocol;

import io.most.examples.cacheserver.ServerSettings;
import io.most.examples.cacheserver.command.CommandTable;
import io.most.examples.cacheserver.command.ServerContext;
import io.most.examples.cacheserver.command.Session;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.ssl.SslContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.redis.FixedRedisMessagePool;
import io.netty.handler.codec.redis.RedisArrayAggregator;
import io.netty.handler.codec.redis.RedisBulkStringAggregator;
import io.netty.handler.codec.redis.RedisDecoder;
import io.netty.handler.codec.redis.RedisEncoder;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The pipeline of a client connection: TLS on the TLS port, client limit, protected mode, idle timeout,
 * RESP2 decoding with inline commands,
 * the request guard (limits before anything is buffered), the bulk-string and array aggregators (with
 * {@link WholeBulkStrings} taking the common case of an argument read whole off the first), the
 * command handler; the RESP encoder for replies, with {@link BulkReplyEncoder} writing a bulk-string
 * reply as one buffer.
 */
public final class RespChannelInitializer extends ChannelInitializer<SocketChannel> {
    private final ServerContext server;
    private final CommandTable commands;
    private final ClientLimiter limiter;
    private final AtomicLong nextClientId = new AtomicLong();

    /** An initializer for connections of {@code server}, which joins admitted ones to {@code clients}. */
    public RespChannelInitializer(ServerContext server, CommandTable commands, ChannelGroup clients) {
        this.server = server;
        this.commands = commands;
        this.limiter = new ClientLimiter(server.settings().maxClients(), server.stats(), clients);
    }

    /**
     * An initializer for the TLS port's connections: TLS first, then the same pipeline, sharing this
     * initializer's client limit and client ids.
     */
    public ChannelInitializer<SocketChannel> withTls(SslContext ssl) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                ch.pipeline().addLast("tls", ssl.newHandler(ch.alloc()));
                RespChannelInitializer.this.initChannel(ch);
            }
        };
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        ServerSettings settings = server.settings();
        ChannelPipeline p = ch.pipeline();
        p.addLast("limit", limiter);
        if (settings.security().protectedMode() && server.users().defaultUser().nopass()
                && ProtectedModeRefusal.refuses(ch.remoteAddress())) {
            p.addLast("protected-mode", new ProtectedModeRefusal(server.stats()));
            return;
        }
        if (!settings.idleTimeout().isZero()) {
            p.addLast("idle", new IdleStateHandler(0, 0, settings.idleTimeout().toMillis(), TimeUnit.MILLISECONDS));
        }
        // true: inline commands ("PING\r\n" typed by hand) as Redis accepts them
        p.addLast("decoder", new RedisDecoder(settings.maxInlineBytes(), FixedRedisMessagePool.INSTANCE, true));
        p.addLast("encoder", new RedisEncoder());
        p.addLast("bulk-reply", new BulkReplyEncoder());
        p.addLast("guard", new RequestGuard(settings.maxArrayLength(), settings.maxBulkBytes(),
                settings.maxRequestBytes()));
        p.addLast("whole", new WholeBulkStrings());
        p.addLast("bulk", new RedisBulkStringAggregator());
        p.addLast("array", new RedisArrayAggregator());
        p.addLast("commands", new CommandHandler(commands, new Session(nextClientId.incrementAndGet(), server)));
    }
}
