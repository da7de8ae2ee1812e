package io.most.examples.cacheserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tenants of one server never reach each other's keys: three users, each limited to its own key prefix
 * but with different command sets, run thousands of random commands over their own keys and the
 * others'. Every command naming another tenant's key is refused with {@code -NOPERM}, no reply carries
 * another tenant's value or key name (KEYS and SCAN list only the user's keys), and at the end each
 * tenant's keys are exactly what its own commands left (checked by the admin against a model of each
 * tenant's namespace): no command of one user read, changed or deleted another's keys, including the
 * commands on the whole keyspace.
 */
class AclIsolationTest {
    private static final int TENANTS = 3;
    private static final int KEYS = 12;
    @TempDir
    Path dir;

    @Test
    void noUserReachesAnotherTenantsKeys() throws Exception {
        Path acl = dir.resolve("users.acl");
        Files.writeString(acl, """
                user default on >admin ~* &* +@all
                user t0 on >pw0 ~t0:* +@all -@dangerous
                user t1 on >pw1 ~t1:* +@read +@write
                user t2 on >pw2 ~t2:* +@all
                """);
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        try (CacheServer most = CacheServer.start(TestServers.small(dir.resolve("most"))
                .security(SecuritySettings.DEFAULT.withAclFile(acl)).build())) {
            int port = most.address().getPort();
            List<RespClient> clients = new ArrayList<>();
            List<Map<String, String>> models = new ArrayList<>();
            try (RespClient admin = new RespClient(port)) {
                assertEquals("+OK\r\n", admin.callText("AUTH", "admin"));
                for (int t = 0; t < TENANTS; t++) {
                    RespClient c = new RespClient(port);
                    clients.add(c);
                    assertEquals("+OK\r\n", c.callText("AUTH", "t" + t, "pw" + t));
                    Map<String, String> model = new TreeMap<>();
                    for (int k = 0; k < KEYS; k++) {
                        String key = key(t, k);
                        String value = tag(t) + "seed" + k;
                        assertEquals("+OK\r\n", admin.callText("SET", key, value));
                        model.put(key, value);
                    }
                    models.add(model);
                }
                List<String> failures = new ArrayList<>();
                for (int op = 0; op < 4000 && failures.size() < 10; op++) {
                    int t = random.nextInt(TENANTS);
                    Step step = randomStep(random, t, op);
                    String reply = clients.get(t).callText(step.args);
                    boolean foreign = step.foreignKey || (step.wholeKeyspace);
                    if (foreign && !reply.startsWith("-NOPERM")) {
                        failures.add("t" + t + " " + String.join(" ", step.args) + " -> " + reply.strip());
                    }
                    for (int other = 0; other < TENANTS; other++) {
                        if (other != t && (reply.contains(tag(other)) || reply.contains("t" + other + ":"))) {
                            failures.add("t" + t + " read t" + other + "'s value: " + String.join(" ", step.args));
                        }
                    }
                    if (!foreign) {
                        apply(models.get(t), step.args, reply);
                    }
                }
                assertTrue(failures.isEmpty(), "seed " + seed + ":\n" + String.join("\n", failures));
                for (int t = 0; t < TENANTS; t++) {
                    Map<String, String> actual = new TreeMap<>();
                    for (int k = 0; k < KEYS; k++) {
                        String value = bulk(admin.callText("GET", key(t, k)));
                        if (value != null) {
                            actual.put(key(t, k), value);
                        }
                        for (int f = 0; f < 3; f++) {
                            String field = bulk(admin.callText("HGET", key(t, k) + "h", "f" + f));
                            if (field != null) {
                                actual.put(key(t, k) + "h f" + f, field);
                            }
                        }
                    }
                    assertEquals(models.get(t), actual, "seed " + seed + ": tenant t" + t + "'s keys");
                }
            } finally {
                for (RespClient c : clients) {
                    c.close();
                }
            }
        }
    }

    private record Step(String[] args, boolean foreignKey, boolean wholeKeyspace) {
    }

    private static Step randomStep(Random random, int tenant, int op) {
        boolean[] foreign = new boolean[1];
        java.util.function.Supplier<String> key = () -> {
            int owner = random.nextBoolean() ? tenant : random.nextInt(TENANTS);
            foreign[0] |= owner != tenant;
            return key(owner, random.nextInt(KEYS));
        };
        String value = tag(tenant) + "w" + op;
        String[] args = switch (random.nextInt(20)) {
            case 17 -> new String[] {"HSET", key.get() + "h", "f" + random.nextInt(3), value};
            case 18 -> new String[] {"HGET", key.get() + "h", "f" + random.nextInt(3)};
            case 19 -> new String[] {"HDEL", key.get() + "h", "f" + random.nextInt(3)};
            case 14 -> new String[] {"KEYS", "*"};
            case 15 -> new String[] {"SCAN", "0", "COUNT", "1000"};
            case 16 -> new String[] {"RENAME", key.get(), key.get()};
            case 0 -> new String[] {"GET", key.get()};
            case 1 -> new String[] {"SET", key.get(), value};
            case 2 -> new String[] {"DEL", key.get(), key.get()};
            case 3 -> new String[] {"MGET", key.get(), key.get(), key.get()};
            case 4 -> new String[] {"MSET", key.get(), value, key.get(), value + "b"};
            case 5 -> new String[] {"EXISTS", key.get(), key.get()};
            case 6 -> new String[] {"APPEND", key.get(), "+" + op};
            case 7 -> new String[] {"GETDEL", key.get()};
            case 8 -> new String[] {"STRLEN", key.get()};
            case 9 -> new String[] {"TTL", key.get()};
            case 10 -> new String[] {"EXPIRE", key.get(), "100000"};
            case 11 -> new String[] {"SET", key.get(), value, "GET"};
            case 12 -> new String[] {random.nextBoolean() ? "FLUSHALL" : "FLUSHDB"};
            default -> new String[] {"INCR", key.get()};
        };
        boolean whole = args[0].startsWith("FLUSH");
        return new Step(args, foreign[0], whole);
    }

    /** What a permitted command did to the tenant's own keys, given its reply. */
    private static void apply(Map<String, String> model, String[] a, String reply) {
        if (reply.startsWith("-")) {
            assertTrue(reply.startsWith("-ERR value is not an integer") || reply.startsWith("-ERR no such key")
                    || reply.startsWith("-NOPERM this user has no permissions to run"), String.join(" ", a) + " -> "
                    + reply);
            return;
        }
        switch (a[0]) {
            case "GET", "GETDEL" -> {
                assertEquals(model.get(a[1]), bulk(reply), String.join(" ", a));
                if (a[0].equals("GETDEL")) {
                    model.remove(a[1]);
                }
            }
            case "SET" -> model.put(a[1], a[2]);
            // a hash is modelled as one entry per field, "key field"
            case "HSET" -> model.put(a[1] + " " + a[2], a[3]);
            case "HGET" -> assertEquals(model.get(a[1] + " " + a[2]), bulk(reply), String.join(" ", a));
            case "HDEL" -> model.remove(a[1] + " " + a[2]);
            case "DEL" -> {
                model.remove(a[1]);
                model.remove(a[2]);
            }
            case "MSET" -> {
                model.put(a[1], a[2]);
                model.put(a[3], a[4]);
            }
            case "APPEND" -> model.merge(a[1], a[2], String::concat);
            case "RENAME" -> {
                String value = model.remove(a[1]);
                if (value != null) {
                    model.put(a[2], value);
                }
            }
            case "INCR" -> model.put(a[1], reply.substring(1).strip());
            default -> {
            }
        }
    }

    private static String bulk(String reply) {
        if (reply.startsWith("$-1")) {
            return null;
        }
        assertFalse(!reply.startsWith("$"), reply);
        return reply.substring(reply.indexOf("\r\n") + 2, reply.length() - 2);
    }

    private static String key(int tenant, int k) {
        return "t" + tenant + ":k" + k;
    }

    private static String tag(int tenant) {
        return "<t" + tenant + ">";
    }

}
