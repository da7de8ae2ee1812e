package io.most.examples.cacheserver.command;

import io.netty.handler.codec.redis.RedisMessage;
import java.util.List;

/** What a command does: its reply to {@code args} (the command name is {@code args.get(0)}). */
@FunctionalInterface
public interface CommandAction {

    /**
     * Runs the command. The arity is checked already.
     *
     * @return the reply, or null for none (SHUTDOWN closes the connection without one)
     * @throws CommandException for an error reply
     */
    RedisMessage run(Session session, List<byte[]> args);
}
