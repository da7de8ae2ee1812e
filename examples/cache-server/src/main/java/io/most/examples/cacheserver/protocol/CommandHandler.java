package io.most.examples.cacheserver.protocol;

import io.most.examples.cacheserver.command.CommandTable;
import io.most.examples.cacheserver.command.Session;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs one connection's requests in order and writes their replies.
 *
 * <p><b>Pipelining.</b> Replies are written as each request completes and flushed once per read
 * (Netty's {@code channelReadComplete}), so a batch of pipelined requests costs one system call.
 *
 * <p><b>Back-pressure.</b> When the replies not yet sent pass the channel's high water mark (a client
 * that does not read), the connection stops reading ({@code autoRead} off) and keeps the requests already
 * decoded from the last read in a queue, running none of them until the channel is writable again: what a
 * slow client costs is bounded by one read and the water mark, not by what it sends.
 *
 * <p><b>Errors.</b> A command's error is a reply. Malformed input ({@link ProtocolException}, a decoder
 * error) runs the requests before it, answers {@code -ERR Protocol error: ...} and closes this
 * connection only. An idle timeout closes it silently, as Redis does.
 */
public final class CommandHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = Logger.getLogger(CommandHandler.class.getName());

    private final CommandTable commands;
    private final Session session;
    private final ArrayDeque<List<byte[]>> pending = new ArrayDeque<>();
    private boolean closing;

    /** A handler running {@code commands} for {@code session}. */
    public CommandHandler(CommandTable commands, Session session) {
        this.commands = commands;
        this.session = session;
    }

    /** The event that asks a connection to finish its queued requests and close (graceful shutdown). */
    public static final Object SHUTDOWN = new Object() {
        @Override
        public String toString() {
            return "SHUTDOWN";
        }
    };

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        List<byte[]> args;
        try {
            if (closing) {
                return;
            }
            args = Requests.arguments((RedisMessage) msg);
        } catch (ProtocolException e) {
            protocolError(ctx, e.getMessage());
            return;
        } finally {
            ReferenceCountUtil.release(msg);
        }
        if (!args.isEmpty()) {
            pending.add(args);
            runPending(ctx, false);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable() && !closing) {
            runPending(ctx, false);
            if (pending.isEmpty() && !closing) {
                ctx.channel().config().setAutoRead(true);
            }
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt == SHUTDOWN) {
            // graceful shutdown: no more reading; the requests already received still get their replies
            ctx.channel().config().setAutoRead(false);
            runPending(ctx, true);
            closeAfterFlush(ctx);
        } else if (evt instanceof IdleStateEvent) {
            closing = true;
            ctx.close();
        } else {
            ctx.fireUserEventTriggered(evt);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (closing || !ctx.channel().isActive()) {
            // e.g. the aggregators complaining that a closed connection left a request incomplete
            return;
        }
        if (cause instanceof ProtocolException e) {
            protocolError(ctx, e.getMessage());
        } else if (cause instanceof DecoderException e) {
            Throwable reason = e.getCause() != null ? e.getCause() : e;
            protocolError(ctx, reason instanceof ProtocolException ? reason.getMessage() : decoderReason(reason));
        } else {
            if (!(cause instanceof IOException)) {
                LOG.log(Level.WARNING, "connection " + session.id() + " failed", cause);
            }
            closing = true;
            ctx.close();
        }
    }

    /**
     * Redis's words for what Netty's decoder refuses: a length out of range is only checked for bulk
     * strings there ({@code $-3}, {@code $600000000}); anything else is named as the decoder names it.
     */
    private static String decoderReason(Throwable reason) {
        String message = String.valueOf(reason.getMessage());
        if (message.startsWith("length: ")) {
            return "invalid bulk length";
        }
        return "invalid request (" + message + ")";
    }

    /**
     * Runs queued requests in order while the channel is writable (or all of them when {@code drain}),
     * and stops reading if some must wait.
     */
    private void runPending(ChannelHandlerContext ctx, boolean drain) {
        while (!pending.isEmpty() && !closing && (drain || ctx.channel().isWritable())) {
            RedisMessage reply = commands.execute(session, pending.poll());
            if (reply != null) {
                ctx.write(reply, ctx.voidPromise());
            }
            if (session.closingAfterReply()) {
                pending.clear();
                closeAfterFlush(ctx);
            }
        }
        if (!pending.isEmpty() && !closing) {
            // the client does not read its replies: read no more until they drain
            ctx.channel().config().setAutoRead(false);
            ctx.flush();
        }
    }

    private void protocolError(ChannelHandlerContext ctx, String reason) {
        if (closing) {
            return;
        }
        session.server().stats().protocolError();
        ctx.channel().config().setAutoRead(false);
        runPending(ctx, true);
        if (!closing) {
            ctx.write(Replies.error("ERR Protocol error: " + reason), ctx.voidPromise());
            closeAfterFlush(ctx);
        }
    }

    private void closeAfterFlush(ChannelHandlerContext ctx) {
        closing = true;
        pending.clear();
        ctx.writeAndFlush(io.netty.buffer.Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }
}
