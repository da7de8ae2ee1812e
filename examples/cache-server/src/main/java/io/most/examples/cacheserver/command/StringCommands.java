package io.most.examples.cacheserver.command;

import static io.most.examples.cacheserver.command.CommandSpec.command;

import io.most.examples.cacheserver.protocol.Replies;
import io.netty.handler.codec.redis.RedisMessage;
import java.util.List;

/**
 * The string commands: GET, SET (NX, XX, GET, EX, PX, EXAT, PXAT, KEEPTTL), GETDEL, MGET, MSET, INCR,
 * INCRBY, DECR, DECRBY, APPEND, STRLEN. Read-modify-write commands go through
 * {@link Keyspace#update}, the cache's atomic per-key update.
 */
final class StringCommands {

    private StringCommands() {
    }

    static List<CommandSpec> specs() {
        return List.of(
                command("get", 2, "readonly fast", 1, 1, 1, "string", "Get the value of a key",
                        (s, a) -> Replies.bulk(s.keyspace().get(a.get(1)))),
                command("set", -3, "write denyoom", 1, 1, 1, "string", "Set the string value of a key",
                        StringCommands::set),
                command("getdel", 2, "write fast", 1, 1, 1, "string", "Get the value of a key and delete the key",
                        StringCommands::getdel),
                command("mget", -2, "readonly fast", 1, -1, 1, "string", "Get the values of all the given keys",
                        StringCommands::mget),
                command("mset", -3, "write denyoom", 1, -1, 2, "string", "Set multiple keys to multiple values",
                        StringCommands::mset),
                command("incr", 2, "write denyoom fast", 1, 1, 1, "string",
                        "Increment the integer value of a key by one", (s, a) -> incrBy(s, a.get(1), 1)),
                command("decr", 2, "write denyoom fast", 1, 1, 1, "string",
                        "Decrement the integer value of a key by one", (s, a) -> incrBy(s, a.get(1), -1)),
                command("incrby", 3, "write denyoom fast", 1, 1, 1, "string",
                        "Increment the integer value of a key by the given amount",
                        (s, a) -> incrBy(s, a.get(1), RedisNumbers.parseLong(a.get(2)))),
                command("decrby", 3, "write denyoom fast", 1, 1, 1, "string",
                        "Decrement the integer value of a key by the given number", StringCommands::decrby),
                command("append", 3, "write denyoom fast", 1, 1, 1, "string", "Append a value to a key",
                        StringCommands::append),
                command("strlen", 2, "readonly fast", 1, 1, 1, "string", "Get the length of the value stored in a key",
                        StringCommands::strlen));
    }

    private static RedisMessage set(Session s, List<byte[]> a) {
        Keyspace keys = s.keyspace();
        long now = System.currentTimeMillis();
        SetOptions opt = SetOptions.parse(a, now);
        byte[] key = a.get(1);
        byte[] value = a.get(2);
        return keys.locked(key, () -> {
            byte[] old = opt.returnOld() ? keys.get(key) : null;
            boolean found = opt.returnOld() ? old != null : (opt.ifAbsent() || opt.ifPresent()) && keys.contains(key);
            if ((opt.ifAbsent() && found) || (opt.ifPresent() && !found)) {
                return opt.returnOld() ? Replies.bulk(old) : Replies.NIL;
            }
            long ttl = 0;
            if (opt.keepTtl()) {
                ttl = Math.max(0, keys.ttlMillis(key));
            } else if (opt.deadline() != 0) {
                ttl = opt.deadline() - now;
            }
            if (opt.deadline() != 0 && ttl <= 0) {
                keys.remove(key); // a deadline already past (EXAT/PXAT): the key ends up absent, as in Redis
            } else {
                keys.put(key, value, ttl);
            }
            return opt.returnOld() ? Replies.bulk(old) : Replies.OK;
        });
    }

    private static RedisMessage getdel(Session s, List<byte[]> a) {
        Keyspace keys = s.keyspace();
        byte[] key = a.get(1);
        return keys.locked(key, () -> {
            byte[] old = keys.get(key);
            if (old != null) {
                keys.remove(key);
            }
            return Replies.bulk(old);
        });
    }

    private static RedisMessage mget(Session s, List<byte[]> a) {
        return Replies.bulkArray(s.keyspace().getAllIfString(a.subList(1, a.size())));
    }

    private static RedisMessage mset(Session s, List<byte[]> a) {
        if (a.size() % 2 == 0) {
            throw CommandException.wrongArity("mset");
        }
        Keyspace keys = s.keyspace();
        for (int i = 1; i < a.size(); i += 2) {
            byte[] key = a.get(i);
            byte[] value = a.get(i + 1);
            keys.locked(key, () -> {
                keys.put(key, value, 0);
                return null;
            });
        }
        return Replies.OK;
    }

    private static RedisMessage decrby(Session s, List<byte[]> a) {
        long decrement = RedisNumbers.parseLong(a.get(2));
        if (decrement == Long.MIN_VALUE) {
            throw new CommandException("ERR decrement would overflow");
        }
        return incrBy(s, a.get(1), -decrement);
    }

    private static RedisMessage incrBy(Session s, byte[] key, long increment) {
        byte[] after = s.keyspace().update(key, old -> {
            long current = old == null ? 0 : RedisNumbers.parseLong(old);
            if ((increment < 0 && current < 0 && increment < Long.MIN_VALUE - current)
                    || (increment > 0 && current > 0 && increment > Long.MAX_VALUE - current)) {
                throw new CommandException("ERR increment or decrement would overflow");
            }
            return RedisNumbers.format(current + increment);
        });
        return Replies.integer(RedisNumbers.parseLong(after));
    }

    private static RedisMessage append(Session s, List<byte[]> a) {
        byte[] suffix = a.get(2);
        byte[] after = s.keyspace().update(a.get(1), old -> {
            if (old == null) {
                return suffix.clone();
            }
            byte[] joined = new byte[old.length + suffix.length];
            System.arraycopy(old, 0, joined, 0, old.length);
            System.arraycopy(suffix, 0, joined, old.length, suffix.length);
            return joined;
        });
        return Replies.integer(after.length);
    }

    private static RedisMessage strlen(Session s, List<byte[]> a) {
        byte[] value = s.keyspace().get(a.get(1));
        return Replies.integer(value == null ? 0 : value.length);
    }
}
