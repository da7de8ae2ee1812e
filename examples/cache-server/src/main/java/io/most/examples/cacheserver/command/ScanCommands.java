package io.most.examples.cacheserver.command;

import static io.most.examples.cacheserver.command.CommandSpec.command;

import io.most.examples.cacheserver.acl.AclUser;
import io.most.examples.cacheserver.acl.Glob;
import io.most.examples.cacheserver.protocol.Replies;
import io.netty.handler.codec.redis.RedisMessage;
import java.nio.charset.StandardCharsets;
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
    /** Redis's default COUNT. */
    private static final int DEFAULT_COUNT = 10;

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
        long cursor = parseCursor(a.get(1));
        String pattern = null;
        String type = null;
        int count = DEFAULT_COUNT;
        for (int i = 2; i < a.size(); i += 2) {
            if (i + 1 >= a.size()) {
                throw CommandException.syntax();
            }
            switch (CommandTable.lowerName(a.get(i))) {
                case "match" -> pattern = latin1(a.get(i + 1));
                case "count" -> {
                    long n = RedisNumbers.parseLong(a.get(i + 1));
                    if (n < 1) {
                        throw CommandException.syntax();
                    }
                    count = (int) Math.min(n, Integer.MAX_VALUE / 10);
                }
                case "type" -> type = CommandTable.lowerName(a.get(i + 1));
                default -> throw CommandException.syntax();
            }
        }
        List<byte[]> found = new ArrayList<>();
        String matchPattern = pattern;
        String matchType = type;
        AclUser user = s.user();
        long next = s.server().keyspace().scan(cursor, count, (key, keyType) -> {
            if ((matchType == null || matchType.equals(keyType)) && user.mayAccess(key)
                    && (matchPattern == null || Glob.matches(matchPattern, latin1(key)))) {
                found.add(key);
            }
        });
        return Replies.array(List.of(Replies.bulk(Long.toUnsignedString(next)), Replies.bulkArray(found)));
    }

    private static RedisMessage keys(Session s, List<byte[]> a) {
        String pattern = latin1(a.get(1));
        AclUser user = s.user();
        List<byte[]> found = new ArrayList<>();
        long cursor = 0;
        do {
            cursor = s.server().keyspace().scan(cursor, 1024, (key, type) -> {
                if (user.mayAccess(key) && Glob.matches(pattern, latin1(key))) {
                    found.add(key);
                }
            });
        } while (cursor != 0);
        return Replies.bulkArray(found);
    }

    /** Redis reads the cursor as an unsigned 64-bit number ({@code strtoull}: "-1" is 2^64 - 1). */
    private static long parseCursor(byte[] text) {
        String t = new String(text, StandardCharsets.US_ASCII);
        try {
            return t.startsWith("-") ? -Long.parseUnsignedLong(t.substring(1)) : Long.parseUnsignedLong(t);
        } catch (NumberFormatException e) {
            throw new CommandException("ERR invalid cursor");
        }
    }

    /** Key bytes as one char per byte: Redis's glob matches bytes. */
    private static String latin1(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }
}
