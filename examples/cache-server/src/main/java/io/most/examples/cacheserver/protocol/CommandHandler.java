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
 * <p><b>Tenants.</b> A command of a tenant's user ({@link Session#executor()}) runs on the tenant's
 * threads instead of the event loop, one at a time per connection (the next waits for the reply, so
 * replies keep their order), with reading paused meanwhile: a tenant whose device accesses a sharing
 * policy holds back holds its own threads, not an event loop that serves other users' connections.
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
    /** A command runs on its tenant's threads: nothing else runs until its reply is written. */
    private boolean inFlight;
    /** A shutdown or protocol error came while a command was in flight: drain, then close. */
    private boolean closeWhenDrained;
    /** The protocol error to answer once the command in flight has replied, or null. */
    private String errorWhenDrained;

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
            if (closing || errorWhenDrained != null) {
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
        if (ctx.channel().isWritable() && !closing && !inFlight) {
            runPending(ctx, false);
            if (pending.isEmpty() && !closing && !inFlight) {
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
            if (inFlight) {
                closeWhenDrained = true;
                return;
            }
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
        while (!inFlight && !pending.isEmpty() && !closing && (drain || ctx.channel().isWritable())) {
            java.util.concurrent.Executor tenant = session.executor();
            if (tenant != null) {
                runOnTenant(ctx, tenant, pending.poll(), drain);
                return;
            }
            reply(ctx, commands.execute(session, pending.poll()));
        }
        if (!pending.isEmpty() && !closing && !inFlight) {
            // the client does not read its replies: read no more until they drain
            ctx.channel().config().setAutoRead(false);
            ctx.flush();
        }
    }

    private void reply(ChannelHandlerContext ctx, RedisMessage reply) {
        if (reply != null) {
            ctx.write(reply, ctx.voidPromise());
        }
        if (session.closingAfterReply()) {
            pending.clear();
            closeAfterFlush(ctx);
        }
    }

    /**
     * Runs one request on its tenant's threads; its reply comes back to the event loop, which then
     * runs what was queued behind it. Reading pauses while it runs: at most one read's requests wait.
     */
    private void runOnTenant(ChannelHandlerContext ctx, java.util.concurrent.Executor tenant, List<byte[]> args,
                             boolean drain) {
        inFlight = true;
        ctx.channel().config().setAutoRead(false);
        try {
            tenant.execute(() -> {
                RedisMessage executed;
                try {
                    executed = commands.execute(session, args);
                } catch (Throwable t) { // an Error: the reply must still come, or the connection waits forever
                    LOG.log(Level.SEVERE, "connection " + session.id() + ": a tenant's command failed", t);
                    executed = Replies.error("ERR " + t.getClass().getSimpleName() + ": " + t.getMessage());
                }
                RedisMessage reply = executed;
                try {
                    ctx.executor().execute(() -> completed(ctx, reply, drain));
                } catch (java.util.concurrent.RejectedExecutionException e) {
                    ReferenceCountUtil.release(reply); // the connection's loop is gone: so is the client
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // the tenant's threads stopped: the server is closing
            inFlight = false;
            closing = true;
            pending.clear();
            ctx.writeAndFlush(Replies.error("ERR the server is shutting down"))
                    .addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** On the event loop: the tenant's command replied; write it and go on with the queue. */
    private void completed(ChannelHandlerContext ctx, RedisMessage reply, boolean drain) {
        inFlight = false;
        if (closing) {
            ReferenceCountUtil.release(reply);
            return;
        }
        reply(ctx, reply);
        runPending(ctx, drain || closeWhenDrained);
        if (inFlight || closing) {
            ctx.flush();
            return;
        }
        if (closeWhenDrained) {
            if (errorWhenDrained != null) {
                ctx.write(Replies.error("ERR Protocol error: " + errorWhenDrained), ctx.voidPromise());
            }
            closeAfterFlush(ctx);
            return;
        }
        ctx.flush();
        if (pending.isEmpty() && ctx.channel().isWritable()) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    private void protocolError(ChannelHandlerContext ctx, String reason) {
        if (closing) {
            return;
        }
        session.server().stats().protocolError();
        ctx.channel().config().setAutoRead(false);
        runPending(ctx, true);
        if (inFlight) {
            closeWhenDrained = true;
            errorWhenDrained = reason;
            return;
        }
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
