package io.most.examples.cacheserver.command;

import static io.most.examples.cacheserver.command.CommandSpec.command;

import io.most.examples.cacheserver.protocol.Replies;
import io.netty.handler.codec.redis.RedisMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * The hash commands: HSET, HGET, HMGET, HGETALL, HDEL, HEXISTS, HLEN, HINCRBY, HKEYS, HVALS, HSCAN,
 * over {@link HashStore} (one cache entry per field). A hash command on a string is {@code -WRONGTYPE},
 * as a string command on a hash is. Fields come in the order of the hash's directory chunks, not in
 * insertion order (Redis promises no order either).
 */
final class HashCommands {
    private HashCommands() {
    }

    static List<CommandSpec> specs() {
        return List.of(
                command("hset", -4, "write denyoom fast", 1, 1, 1, "hash", "Set the string value of a hash field",
                        HashCommands::hset),
                command("hget", 3, "readonly fast", 1, 1, 1, "hash", "Get the value of a hash field",
                        (s, a) -> Replies.bulk(field(s, a.get(1), a.get(2)))),
                command("hmget", -3, "readonly fast", 1, 1, 1, "hash", "Get the values of all the given hash fields",
                        HashCommands::hmget),
                command("hgetall", 2, "readonly", 1, 1, 1, "hash", "Get all the fields and values in a hash",
                        (s, a) -> all(s, a.get(1), true, true)),
                command("hkeys", 2, "readonly", 1, 1, 1, "hash", "Get all the fields in a hash",
                        (s, a) -> all(s, a.get(1), true, false)),
                command("hvals", 2, "readonly", 1, 1, 1, "hash", "Get all the values in a hash",
                        (s, a) -> all(s, a.get(1), false, true)),
                command("hdel", -3, "write fast", 1, 1, 1, "hash", "Delete one or more hash fields",
                        HashCommands::hdel),
                command("hexists", 3, "readonly fast", 1, 1, 1, "hash", "Determine if a hash field exists",
                        (s, a) -> Replies.integer(field(s, a.get(1), a.get(2)) != null ? 1 : 0)),
                command("hlen", 2, "readonly fast", 1, 1, 1, "hash", "Get the number of fields in a hash",
                        HashCommands::hlen),
                command("hincrby", 4, "write denyoom fast", 1, 1, 1, "hash",
                        "Increment the integer value of a hash field by the given number", HashCommands::hincrby),
                command("hscan", -3, "readonly", 1, 1, 1, "hash",
                        "Incrementally iterate hash fields and associated values", HashCommands::hscan));
    }

    /** The header of hash {@code key}, null if absent; {@code WRONGTYPE} if it holds a string. */
    private static HashStore.Header header(Session s, byte[] key) {
        Keyspace keys = s.keyspace();
        HashStore.Header header = keys.hashes().header(key);
        if (header == null) {
            keys.requireNotString(key);
        }
        return header;
    }

    private static byte[] field(Session s, byte[] key, byte[] field) {
        HashStore.Header header = header(s, key);
        byte[] value = header == null ? null : s.keyspace().hashes().get(header, key, field);
        s.keyspace().recordLookup(header != null);
        return value;
    }

    private static RedisMessage hset(Session s, List<byte[]> a) {
        if (a.size() % 2 != 0) {
            throw CommandException.wrongArity("hset");
        }
        Keyspace keys = s.keyspace();
        byte[] key = a.get(1);
        return keys.locked(key, () -> {
            keys.requireNotString(key);
            long added = 0;
            for (int i = 2; i < a.size(); i += 2) {
                if (keys.hashes().put(key, a.get(i), a.get(i + 1))) {
                    added++;
                }
            }
            return Replies.integer(added);
        });
    }

    private static RedisMessage hmget(Session s, List<byte[]> a) {
        HashStore.Header header = header(s, a.get(1));
        List<byte[]> values = new ArrayList<>(a.size() - 2);
        for (int i = 2; i < a.size(); i++) {
            values.add(header == null ? null : s.keyspace().hashes().get(header, a.get(1), a.get(i)));
        }
        return Replies.bulkArray(values);
    }

    private static RedisMessage all(Session s, byte[] key, boolean fields, boolean values) {
        HashStore.Header header = header(s, key);
        List<byte[]> out = new ArrayList<>();
        if (header != null) {
            HashStore hashes = s.keyspace().hashes();
            int chunk = 0;
            do {
                chunk = hashes.walk(header, key, chunk, Integer.MAX_VALUE, (f, v) -> {
                    if (fields) {
                        out.add(f);
                    }
                    if (values) {
                        out.add(v);
                    }
                });
            } while (chunk != 0);
        }
        return Replies.bulkArray(out);
    }

    private static RedisMessage hdel(Session s, List<byte[]> a) {
        Keyspace keys = s.keyspace();
        byte[] key = a.get(1);
        return keys.locked(key, () -> {
            if (header(s, key) == null) {
                return Replies.ZERO;
            }
            long removed = 0;
            for (int i = 2; i < a.size(); i++) {
                if (keys.hashes().remove(key, a.get(i))) {
                    removed++;
                }
            }
            return Replies.integer(removed);
        });
    }

    private static RedisMessage hlen(Session s, List<byte[]> a) {
        HashStore.Header header = header(s, a.get(1));
        return Replies.integer(header == null ? 0 : header.fields());
    }

    private static RedisMessage hincrby(Session s, List<byte[]> a) {
        long increment = RedisNumbers.parseLong(a.get(3));
        Keyspace keys = s.keyspace();
        byte[] key = a.get(1);
        byte[] field = a.get(2);
        return keys.locked(key, () -> {
            HashStore.Header header = header(s, key);
            byte[] old = header == null ? null : keys.hashes().get(header, key, field);
            long current = 0;
            if (old != null) {
                try {
                    current = RedisNumbers.parseLong(old);
                } catch (CommandException notANumber) {
                    throw new CommandException("ERR hash value is not an integer");
                }
            }
            if ((increment < 0 && current < 0 && increment < Long.MIN_VALUE - current)
                    || (increment > 0 && current > 0 && increment > Long.MAX_VALUE - current)) {
                throw new CommandException("ERR increment or decrement would overflow");
            }
            long after = current + increment;
            keys.hashes().put(key, field, RedisNumbers.format(after));
            return Replies.integer(after);
        });
    }

    private static RedisMessage hscan(Session s, List<byte[]> a) {
        ScanOptions options = ScanOptions.parse(a, 2, false);
        HashStore.Header header = header(s, a.get(1));
        List<byte[]> out = new ArrayList<>();
        int next = 0;
        if (header != null && options.cursor() >= 0 && options.cursor() < HashStore.CHUNKS) {
            next = s.keyspace().hashes().walk(header, a.get(1), (int) options.cursor(), options.count(),
                    (f, v) -> {
                        if (options.matches(f)) {
                            out.add(f);
                            out.add(v);
                        }
                    });
        }
        return Replies.array(List.of(Replies.bulk(Integer.toString(next)), Replies.bulkArray(out)));
    }
}
