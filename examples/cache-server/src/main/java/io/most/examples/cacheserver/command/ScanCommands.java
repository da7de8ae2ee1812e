package io.most.examples.cacheserver.command;

import static io.most.examples.cacheserver.command.CommandSpec.command;

import io.most.examples.cacheserver.acl.AclUser;
import io.most.examples.cacheserver.acl.Glob;
import io.most.examples.cacheserver.protocol.Replies;
import io.netty.handler.codec.redis.RedisMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code SCAN cursor [MATCH pattern] [COUNT n] [TYPE type]} and {@code KEYS pattern}, with Redis's
 * guarantee: a key present for the whole scan is returned (at least once). The cursor is a position in
 * the cache's fixed bucket order ({@link Keyspace#scan}), so it stays valid while keys come and go.
 *
 * <p>Beyond Redis: a user limited to some key patterns sees only the keys it may access (Redis lists
 * every key name to anyone allowed {@code KEYS}); the names of another tenant's keys are not its to see.
 */
final class ScanCommands {
    private ScanCommands() {
    }

    static List<CommandSpec> specs() {
        return List.of(
                command("scan", -2, "readonly", 0, 0, 0, "generic", "Incrementally iterate the keys space",
                        ScanCommands::scan),
                command("keys", 2, "readonly", 0, 0, 0, "generic", "Find all keys matching the given pattern",
                        ScanCommands::keys));
    }

    private static RedisMessage scan(Session s, List<byte[]> a) {
        ScanOptions options = ScanOptions.parse(a, 1, true);
        List<byte[]> found = new ArrayList<>();
        AclUser user = s.user();
        long next = s.keyspace().scan(options.cursor(), options.count(), (key, keyType) -> {
            if ((options.type() == null || options.type().equals(keyType)) && user.mayAccess(key)
                    && options.matches(key)) {
                found.add(key);
            }
        });
        return Replies.array(List.of(Replies.bulk(Long.toUnsignedString(next)), Replies.bulkArray(found)));
    }

    private static RedisMessage keys(Session s, List<byte[]> a) {
        String pattern = ScanOptions.latin1(a.get(1));
        AclUser user = s.user();
        List<byte[]> found = new ArrayList<>();
        long cursor = 0;
        do {
            cursor = s.keyspace().scan(cursor, 1024, (key, type) -> {
                if (user.mayAccess(key) && Glob.matches(pattern, ScanOptions.latin1(key))) {
                    found.add(key);
                }
            });
        } while (cursor != 0);
        return Replies.bulkArray(found);
    }
}
