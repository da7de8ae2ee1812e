package io.most.examples.cacheserver.command;

import static io.most.examples.cacheserver.command.CommandSpec.command;

import io.most.examples.cacheserver.protocol.Replies;
import io.netty.handler.codec.redis.RedisMessage;
import java.util.List;

/**
 * The generic key commands: DEL, UNLINK, EXISTS, TYPE, RENAME, EXPIRE, PEXPIRE (NX, XX, GT, LT), TTL,
 * PTTL, PERSIST.
 */
final class KeyCommands {

    private KeyCommands() {
    }

    static List<CommandSpec> specs() {
        return List.of(
                command("del", -2, "write", 1, -1, 1, "generic", "Delete a key", KeyCommands::del),
                // the cache frees a removed value's space itself: unlinking is deleting here
                command("unlink", -2, "write fast", 1, -1, 1, "generic",
                        "Delete a key asynchronously in another thread. Otherwise it is just as DEL, but non blocking",
                        KeyCommands::del),
                command("type", 2, "readonly fast", 1, 1, 1, "generic", "Determine the type stored at key",
                        (s, a) -> Replies.simple(s.keyspace().type(a.get(1)))),
                command("rename", 3, "write", 1, 2, 1, "generic", "Rename a key", KeyCommands::rename),
                command("exists", -2, "readonly fast", 1, -1, 1, "generic", "Determine if a key exists",
                        KeyCommands::exists),
                command("expire", -3, "write fast", 1, 1, 1, "generic", "Set a key's time to live in seconds",
                        (s, a) -> expire(s, a, 1000, "expire")),
                command("pexpire", -3, "write fast", 1, 1, 1, "generic", "Set a key's time to live in milliseconds",
                        (s, a) -> expire(s, a, 1, "pexpire")),
                command("ttl", 2, "readonly fast", 1, 1, 1, "generic", "Get the time to live for a key in seconds",
                        (s, a) -> ttl(s, a.get(1), false)),
                command("pttl", 2, "readonly fast", 1, 1, 1, "generic",
                        "Get the time to live for a key in milliseconds", (s, a) -> ttl(s, a.get(1), true)),
                command("persist", 2, "write fast", 1, 1, 1, "generic", "Remove the expiration from a key",
                        (s, a) -> Replies.integer(s.keyspace().persist(a.get(1)) ? 1 : 0)));
    }

    private static RedisMessage del(Session s, List<byte[]> a) {
        Keyspace keys = s.keyspace();
        long removed = 0;
        for (int i = 1; i < a.size(); i++) {
            byte[] key = a.get(i);
            if (keys.locked(key, () -> keys.remove(key))) {
                removed++;
            }
        }
        return Replies.integer(removed);
    }

    private static RedisMessage rename(Session s, List<byte[]> a) {
        if (!s.keyspace().rename(a.get(1), a.get(2))) {
            throw new CommandException("ERR no such key");
        }
        return Replies.OK;
    }

    private static RedisMessage exists(Session s, List<byte[]> a) {
        Keyspace keys = s.keyspace();
        long found = 0;
        for (int i = 1; i < a.size(); i++) {
            if (keys.exists(a.get(i))) {
                found++;
            }
        }
        return Replies.integer(found);
    }

    private static RedisMessage ttl(Session s, byte[] key, boolean millis) {
        Keyspace keys = s.keyspace();
        long ttl = keys.ttlMillis(key);
        keys.recordLookup(ttl != Keyspace.NO_KEY); // Redis counts TTL's lookup as a keyspace hit or miss
        if (ttl < 0) {
            return Replies.integer(ttl);
        }
        return Replies.integer(millis ? ttl : (ttl + 500) / 1000);
    }

    private static RedisMessage expire(Session s, List<byte[]> a, long unitMillis, String name) {
        ExpireCondition condition = ExpireCondition.parse(a);
        long when = RedisNumbers.parseLong(a.get(2));
        long now = System.currentTimeMillis();
        // Redis accepts negative times (they delete the key) but refuses overflowing ones
        if (unitMillis == 1000 && (when > Long.MAX_VALUE / 1000 || when < Long.MIN_VALUE / 1000)) {
            throw CommandException.invalidExpire(name);
        }
        long millis = when * unitMillis;
        if (millis > Long.MAX_VALUE - now) {
            throw CommandException.invalidExpire(name);
        }
        Keyspace keys = s.keyspace();
        byte[] key = a.get(1);
        return keys.locked(key, () -> {
            long current = keys.ttlMillis(key);
            if (current == Keyspace.NO_KEY || !condition.allows(current, millis)) {
                return Replies.ZERO;
            }
            return Replies.integer(keys.expire(key, millis) ? 1 : 0);
        });
    }
}
