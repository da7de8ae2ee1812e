package io.most.examples.cacheserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ACL users served as tenants each have a namespace of their own: three tenants and the operator (the
 * default user, on database 0) use the same key names, all with {@code ~*} and every command, and run
 * thousands of random commands (strings, hashes, RENAME, KEYS, SCAN, DEL, FLUSHALL) with a random seed,
 * printed on failure. Every reply must be exactly what a model of the caller's own keys predicts and
 * carry no other user's value, so no command of one user ever read, listed, changed or deleted another
 * user's keys; after a restart each tenant finds exactly its keys again, in its space on the shared device.
 */
class TenantNamespaceTest {
    private static final String[] USERS = {"default", "t0", "t1", "t2"};
    private static final int KEYS = 8;
    @TempDir
    Path dir;

    private ServerSettings settings(Path acl) {
        SharingSettings sharing = SharingSettings.NONE;
        for (int t = 0; t < 3; t++) {
            sharing = sharing.withTenant(TenantSettings.parse("t" + t + ":dram=1m,ssd=2m,regions=2m,weight=" + (t + 1)));
        }
        sharing = sharing.withPolicy("proportional");
        return TestServers.small(dir.resolve("most")).security(SecuritySettings.DEFAULT.withAclFile(acl))
                .sharing(sharing).build();
    }

    @Test
    void noCommandOfOneUserReachesAnotherUsersKeys() throws Exception {
        Path acl = dir.resolve("users.acl");
        Files.writeString(acl, """
                user default on >admin ~* &* +@all
                user t0 on >pw0 ~* +@all
                user t1 on >pw1 ~* +@all
                user t2 on >pw2 ~* +@all -flushall
                """);
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        List<Model> models = new ArrayList<>();
        for (int u = 0; u < USERS.length; u++) {
            models.add(new Model());
        }
        try (CacheServer server = CacheServer.start(settings(acl))) {
            List<RespClient> clients = login(server.address().getPort());
            try {
                for (int op = 0; op < 4000; op++) {
                    int u = random.nextInt(USERS.length);
                    String[] args = randomCommand(random, u, op);
                    String reply = clients.get(u).callText(args);
                    String context = "seed " + seed + ", op " + op + ", " + USERS[u] + ": " + String.join(" ", args);
                    for (int other = 0; other < USERS.length; other++) {
                        assertTrue(other == u || !reply.contains(tag(other)), context + " -> " + reply.strip()
                                + " carries " + USERS[other] + "'s value");
                    }
                    if (args[0].equals("FLUSHALL") && USERS[u].equals("t2")) { // -flushall
                        assertTrue(reply.startsWith("-NOPERM"), context + " -> " + reply);
                        continue;
                    }
                    assertEquals(models.get(u).expect(args), normalized(args, Resp.parse(reply)), context);
                }
                String tenantInfo = clients.get(1).callText("INFO", "tenants");
                assertTrue(tenantInfo.contains("tenant_t0:keys=") && !tenantInfo.contains("tenant_t1")
                        && tenantInfo.contains("sharing_policy:proportional"), tenantInfo);
                String tenantMost = clients.get(1).callText("INFO", "most");
                assertTrue(tenantMost.contains("most_dram_bytes:" + (1 << 20) + "\r\n"), "a tenant's own cache: " + tenantMost);
                for (String field : List.of("most_small_item_front_writes_absorbed:", "most_small_item_front_invalidations:",
                        "most_small_item_front_writebacks:", "most_small_item_front_dirty_bytes:")) {
                    assertTrue(tenantMost.contains("\r\n" + field), "the front's write counters: " + tenantMost);
                }
                String operatorInfo = clients.get(0).callText("INFO", "tenants");
                for (String t : List.of("t0", "t1", "t2")) {
                    assertTrue(operatorInfo.contains("tenant_" + t + ":keys="), operatorInfo);
                }
                assertTrue(operatorInfo.contains("device_used_ms=") && operatorInfo.contains("slowdown="), operatorInfo);
            } finally {
                for (RespClient c : clients) {
                    c.close();
                }
            }
        }
        // the next start finds each tenant's keys in its own space, and nobody else's
        try (CacheServer server = CacheServer.start(settings(acl))) {
            List<RespClient> clients = login(server.address().getPort());
            try {
                for (int u = 0; u < USERS.length; u++) {
                    String context = "seed " + seed + ", after a restart, " + USERS[u];
                    String[] keys = {"KEYS", "*"};
                    assertEquals(models.get(u).expect(keys), normalized(keys, Resp.parse(clients.get(u).callText(keys))),
                            context);
                    for (String key : models.get(u).keys()) {
                        String[] get = models.get(u).strings.containsKey(key) ? new String[] {"GET", key}
                                : new String[] {"HGETALL", key};
                        assertEquals(models.get(u).expect(get), normalized(get, Resp.parse(clients.get(u).callText(get))),
                                context);
                    }
                }
            } finally {
                for (RespClient c : clients) {
                    c.close();
                }
            }
        }
    }

    @Test
    void aTenantNamingNoUserOrABadTenantOptionStopsTheStart() throws Exception {
        Path acl = dir.resolve("users.acl");
        Files.writeString(acl, "user default on >admin ~* &* +@all\n");
        IllegalArgumentException noUser = assertThrows(IllegalArgumentException.class, () -> CacheServer.start(
                TestServers.small(dir.resolve("x")).security(SecuritySettings.DEFAULT.withAclFile(acl))
                        .sharing(SharingSettings.NONE.withTenant(TenantSettings.parse("ghost"))).build()));
        assertTrue(noUser.getMessage().contains("'ghost' names no ACL user"), noUser.getMessage());
        IllegalArgumentException key = assertThrows(IllegalArgumentException.class,
                () -> TenantSettings.parse("shop:dram=16m,disk=1g"));
        assertTrue(key.getMessage().contains("unknown key 'disk'"), key.getMessage());
        assertThrows(IllegalArgumentException.class, () -> TenantSettings.parse("shop:weight=0"));
        assertThrows(IllegalArgumentException.class, () -> TenantSettings.parse("shop:limit=1.5"));
        IllegalArgumentException policy = assertThrows(IllegalArgumentException.class,
                () -> SharingSettings.NONE.withTenant(TenantSettings.parse("a")).withPolicy("qos:b:2ms"));
        assertTrue(policy.getMessage().contains("qos:USER:P99"), policy.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SharingSettings.NONE.withPolicy("fair"));
        assertThrows(IllegalArgumentException.class,
                () -> SharingSettings.NONE.withTenant(TenantSettings.parse("a")).withPolicy("limit"));
        assertThrows(IllegalArgumentException.class,
                () -> SharingSettings.NONE.withTenant(TenantSettings.parse("a")).withTenant(TenantSettings.parse("a")));
    }

    /** Replies whose order no server promises, in the model's order: keys sorted, a hash's pairs as a map. */
    @SuppressWarnings("unchecked")
    private static Object normalized(String[] args, Object reply) {
        switch (args[0]) {
            case "KEYS" -> {
                return reply instanceof List<?> l ? new ArrayList<Object>(new TreeSet<>((List<String>) l)) : reply;
            }
            case "SCAN" -> {
                if (reply instanceof List<?> l && l.size() == 2 && l.get(1) instanceof List<?> keys) {
                    return List.of(l.get(0), new ArrayList<Object>(new TreeSet<>((List<String>) keys)));
                }
                return reply;
            }
            case "HGETALL" -> {
                if (reply instanceof List<?> l) {
                    Map<Object, Object> map = new TreeMap<>();
                    for (int i = 0; i + 1 < l.size(); i += 2) {
                        map.put(l.get(i), l.get(i + 1));
                    }
                    return map;
                }
                return reply;
            }
            default -> {
                return reply;
            }
        }
    }

    private static List<RespClient> login(int port) throws Exception {
        List<RespClient> clients = new ArrayList<>();
        for (int u = 0; u < USERS.length; u++) {
            RespClient c = new RespClient(port);
            clients.add(c);
            String password = u == 0 ? "admin" : "pw" + (u - 1);
            assertEquals("+OK\r\n", c.callText("AUTH", USERS[u], password));
        }
        return clients;
    }

    private static String[] randomCommand(Random random, int user, int op) {
        String k1 = "k" + random.nextInt(KEYS);
        String k2 = "k" + random.nextInt(KEYS);
        String h1 = "h" + random.nextInt(KEYS / 2);
        String h2 = "h" + random.nextInt(KEYS / 2);
        String field = "f" + random.nextInt(3);
        String value = tag(user) + op;
        return switch (random.nextInt(22)) {
            case 0, 1 -> new String[] {"GET", k1};
            case 2, 3 -> new String[] {"SET", k1, value};
            case 4 -> new String[] {"DEL", k1, k2};
            case 5 -> new String[] {"UNLINK", k1, h1};
            case 6 -> new String[] {"MGET", k1, k2, h1};
            case 7 -> new String[] {"EXISTS", k1, k2, h1};
            case 8 -> new String[] {"APPEND", k1, "+" + op};
            case 9 -> new String[] {"GETDEL", k1};
            case 10 -> new String[] {"RENAME", k1, k2};
            case 11 -> new String[] {"RENAME", h1, h2};
            case 12 -> new String[] {"KEYS", "*"};
            case 13 -> new String[] {"SCAN", "0", "COUNT", "1000"};
            case 14, 15 -> new String[] {"HSET", h1, field, value};
            case 16 -> new String[] {"HGET", h1, field};
            case 17 -> new String[] {"HDEL", h1, field};
            case 18 -> new String[] {"HGETALL", h1};
            case 19 -> new String[] {"TYPE", random.nextBoolean() ? k1 : h1};
            case 20 -> new String[] {"STRLEN", k1};
            default -> random.nextInt(8) == 0 ? new String[] {"FLUSHALL"} : new String[] {"GET", k2};
        };
    }

    private static String tag(int user) {
        return "<u" + user + ">";
    }

    /** One user's keys: strings and hashes, and the reply each command must get. */
    private static final class Model {
        final Map<String, String> strings = new HashMap<>();
        final Map<String, Map<String, String>> hashes = new HashMap<>();

        Set<String> keys() {
            Set<String> all = new TreeSet<>(strings.keySet());
            all.addAll(hashes.keySet());
            return all;
        }

        /** Applies {@code a} to the model and returns the reply it must get, parsed as {@link Resp#parse} does. */
        Object expect(String[] a) {
            switch (a[0]) {
                case "GET" -> {
                    return strings.get(a[1]);
                }
                case "SET" -> {
                    strings.put(a[1], a[2]);
                    return "+OK";
                }
                case "DEL", "UNLINK" -> {
                    long n = 0;
                    for (String k : new LinkedHashSet<>(List.of(a).subList(1, a.length))) {
                        n += strings.remove(k) != null || hashes.remove(k) != null ? 1 : 0;
                    }
                    return n;
                }
                case "MGET" -> {
                    List<Object> values = new ArrayList<>();
                    for (int i = 1; i < a.length; i++) {
                        values.add(strings.get(a[i]));
                    }
                    return values;
                }
                case "EXISTS" -> {
                    long n = 0;
                    for (int i = 1; i < a.length; i++) {
                        n += strings.containsKey(a[i]) || hashes.containsKey(a[i]) ? 1 : 0;
                    }
                    return n;
                }
                case "APPEND" -> {
                    String v = strings.merge(a[1], a[2], String::concat);
                    return (long) v.length();
                }
                case "GETDEL" -> {
                    return strings.remove(a[1]);
                }
                case "STRLEN" -> {
                    String v = strings.get(a[1]);
                    return (long) (v == null ? 0 : v.length());
                }
                case "RENAME" -> {
                    if (!strings.containsKey(a[1]) && !hashes.containsKey(a[1])) {
                        return "-ERR no such key";
                    }
                    if (!a[1].equals(a[2])) {
                        String s = strings.remove(a[1]);
                        Map<String, String> h = hashes.remove(a[1]);
                        strings.remove(a[2]);
                        hashes.remove(a[2]);
                        if (s != null) {
                            strings.put(a[2], s);
                        } else {
                            hashes.put(a[2], h);
                        }
                    }
                    return "+OK";
                }
                case "KEYS" -> {
                    return new ArrayList<Object>(keys());
                }
                case "SCAN" -> {
                    return List.of("0", new ArrayList<Object>(keys()));
                }
                case "HSET" -> {
                    return hashes.computeIfAbsent(a[1], k -> new TreeMap<>()).put(a[2], a[3]) == null ? 1L : 0L;
                }
                case "HGET" -> {
                    Map<String, String> h = hashes.get(a[1]);
                    return h == null ? null : h.get(a[2]);
                }
                case "HDEL" -> {
                    Map<String, String> h = hashes.get(a[1]);
                    if (h == null || h.remove(a[2]) == null) {
                        return 0L;
                    }
                    if (h.isEmpty()) {
                        hashes.remove(a[1]);
                    }
                    return 1L;
                }
                case "HGETALL" -> {
                    Map<String, String> h = hashes.getOrDefault(a[1], Map.of());
                    return new TreeMap<Object, Object>(h);
                }
                case "TYPE" -> {
                    return strings.containsKey(a[1]) ? "+string" : hashes.containsKey(a[1]) ? "+hash" : "+none";
                }
                case "FLUSHALL" -> {
                    strings.clear();
                    hashes.clear();
                    return "+OK";
                }
                default -> throw new AssertionError("no model of " + a[0]);
            }
        }
    }

    /**
     * RESP replies as comparable values: bulk strings as String (nil as null), simple strings and errors
     * as their whole line ("+OK", "-ERR no such key"), integers as Long, arrays as lists.
     */
    static final class Resp {
        private final String text;
        private int pos;

        private Resp(String text) {
            this.text = text;
        }

        static Object parse(String reply) {
            Resp r = new Resp(reply);
            Object value = r.next();
            assertEquals(reply.length(), r.pos, "one reply: " + reply);
            return value;
        }

        private String line() {
            int end = text.indexOf("\r\n", pos);
            String line = text.substring(pos, end);
            pos = end + 2;
            return line;
        }

        private Object next() {
            String line = line();
            switch (line.charAt(0)) {
                case '+', '-' -> {
                    return line;
                }
                case ':' -> {
                    return Long.parseLong(line.substring(1));
                }
                case '$' -> {
                    int n = Integer.parseInt(line.substring(1));
                    if (n < 0) {
                        return null;
                    }
                    String s = text.substring(pos, pos + n);
                    pos += n + 2;
                    return s;
                }
                case '*' -> {
                    int n = Integer.parseInt(line.substring(1));
                    List<Object> items = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        items.add(next());
                    }
                    return items;
                }
                default -> throw new AssertionError("not a RESP reply: " + text);
            }
        }
    }
}
