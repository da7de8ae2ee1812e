package io.most.examples.cacheserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.examples.cacheserver.acl.AclCategories;
import io.most.examples.cacheserver.acl.AclFileException;
import io.most.examples.cacheserver.command.CommandSpec;
import io.most.examples.cacheserver.command.CommandTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Authentication and ACLs against a real {@code redis-server} started with the same ACL file or
 * {@code requirepass}: every reply (AUTH, NOAUTH, WRONGPASS, NOPERM for commands and keys, ACL WHOAMI,
 * ACL LIST with its hashes and rules, ACL USERS) must be the same bytes.
 */
class AclConformanceTest {
    @TempDir
    Path dir;

    /** Users whose rules Redis 7.0's ACL LIST prints as given, so that the listings compare too. */
    static final String ACL = """
            user default on nopass ~* &* +@all
            user alice on >alicepw ~cache:* +@read
            user bob on >bobpw ~bob:* ~shared:* +@all -@dangerous -del
            user carol off >c ~* +@all

            user dave on #e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 allkeys +@write +@read
            user frank on >f1 >f2 <f1 ~a ~b resetkeys ~c &chan +@string sanitize-payload
            """;

    /**
     * Users with overlapping rules: their permissions compare, not their ACL LIST lines, which Redis 7.0
     * recomputes from its own command table (see the README).
     */
    static final String OVERLAPPING = """
            user default on nopass ~* &* +@all
            user gina on nopass resetpass >x ~* +get +set -@all +ping +client|id
            user hal on nopass allkeys +@write +@read -@write
            user ivan on >i ~c* +@string -incr +incr -get
            """;

    private static final List<List<String>> AS_USERS = List.of(
            List.of("ACL", "WHOAMI"),
            List.of("ACL", "LIST"),
            List.of("ACL", "USERS"),
            List.of("AUTH", "alice", "alicepw"),
            List.of("GET", "cache:1"), List.of("GET", "other"), List.of("SET", "cache:1", "x"),
            List.of("MGET", "cache:1", "other"), List.of("MGET", "cache:1", "cache:2"), List.of("EXISTS", "cache:1"),
            List.of("CONFIG", "GET", "port"), List.of("CLIENT", "SETNAME", "x"), List.of("ACL", "WHOAMI"),
            List.of("ACL", "LIST"), List.of("FOO"), List.of("GET"), List.of("DBSIZE"), List.of("FLUSHALL"),
            List.of("PING"), List.of("TTL", "other"), List.of("TTL", "cache:9"),
            List.of("AUTH", "wrong"), List.of("AUTH", "a", "b", "c"), List.of("AUTH", "alice", "wrong"),
            List.of("AUTH", "nosuch", "alicepw"), List.of("GET", "cache:1"),
            List.of("AUTH", "bob", "bobpw"), List.of("DEL", "bob:1"), List.of("SET", "bob:1", "x"),
            List.of("GET", "bob:1"), List.of("GET", "alice:1"), List.of("MSET", "bob:2", "y", "shared:1", "z"),
            List.of("MSET", "bob:3", "y", "cache:1", "z"), List.of("INCR", "shared:n"), List.of("APPEND", "cache:1", "z"),
            List.of("GETDEL", "shared:1"), List.of("EXPIRE", "other", "10"), List.of("FLUSHDB"), List.of("INFO", "server"),
            List.of("SHUTDOWN"), List.of("ACL", "WHOAMI"), List.of("ACL", "USERS"),
            List.of("AUTH", "carol", "c"),
            List.of("AUTH", "dave", ""), List.of("SET", "e", "1"), List.of("GET", "e"), List.of("AUTH", "dave", "x"),
            List.of("DEL", "e"), List.of("AUTH", "frank", "f1"), List.of("AUTH", "frank", "f2"),
            List.of("SET", "c", "1"), List.of("INCR", "c"), List.of("SET", "a", "1"), List.of("DEL", "c"),
            List.of("AUTH", "default", "anything"), List.of("ACL", "WHOAMI"), List.of("ACL"), List.of("ACL", "FOO"),
            List.of("ACL", "WHOAMI", "x"), List.of("ACL", "LIST", "x"), List.of("DEL", "bob:1", "bob:2", "shared:n", "e"));

    @Test
    void aclFileUsersAnswerAsRedis() throws Exception {
        Path acl = dir.resolve("users.acl");
        Files.writeString(acl, ACL);
        compare(acl, null, AS_USERS);
    }

    @Test
    void overlappingRulesPermitAsRedis() throws Exception {
        Path acl = dir.resolve("overlapping.acl");
        Files.writeString(acl, OVERLAPPING);
        compare(acl, null, List.of(
                List.of("AUTH", "gina", "x"), List.of("GET", "k"), List.of("SET", "k", "v"), List.of("PING"),
                List.of("CLIENT", "SETNAME", "n"), List.of("CLIENT", "GETNAME"), List.of("AUTH", "hal", "x"),
                List.of("SET", "k", "v"), List.of("GET", "k"), List.of("DBSIZE"), List.of("AUTH", "ivan", "i"),
                List.of("SET", "c1", "5"), List.of("INCR", "c1"), List.of("GET", "c1"), List.of("STRLEN", "c1"),
                List.of("INCR", "d1"), List.of("DEL", "c1"), List.of("ACL", "WHOAMI")));
    }

    @Test
    void requirepassAnswersAsRedis() throws Exception {
        compare(null, "sekret", List.of(
                List.of("PING"), List.of("FOO"), List.of("GET"), List.of("GET", "x"), List.of("CLIENT", "ID"),
                List.of("ACL", "WHOAMI"), List.of("AUTH"), List.of("AUTH", "sekret2"), List.of("AUTH", "default", "s"),
                List.of("AUTH", "a", "b", "c"), List.of("AUTH", "nosuch", "sekret"), List.of("GET", "x"),
                List.of("AUTH", "sekret"), List.of("ACL", "WHOAMI"), List.of("ACL", "LIST"), List.of("ACL", "USERS"),
                List.of("SET", "x", "1"), List.of("AUTH", "wrong"), List.of("GET", "x"), List.of("DEL", "x"),
                List.of("AUTH", "default", "sekret"), List.of("QUIT")));
    }

    @Test
    void noPasswordAnswersAsRedis() throws Exception {
        compare(null, null, List.of(List.of("AUTH", "x"), List.of("AUTH", "default", "x"), List.of("AUTH", "u", "x"),
                List.of("ACL", "WHOAMI"), List.of("ACL", "LIST"), List.of("ACL", "USERS")));
    }

    /** The categories each command has, as {@code COMMAND INFO} of redis-server lists them. */
    @Test
    void commandCategoriesAreRedisOnes() throws Exception {
        Files.createDirectories(dir.resolve("redis"));
        try (RedisServerProcess redis = RedisServerProcess.start(dir.resolve("redis"));
             RespClient r = new RespClient(redis.port())) {
            List<String> differences = new ArrayList<>();
            for (CommandSpec spec : CommandTable.standard().all()) {
                List<CommandSpec> specs = spec.subcommands().isEmpty() ? List.of(spec)
                        : new ArrayList<>(spec.subcommands().values());
                for (CommandSpec s : specs) {
                    String reply = new String(r.call("COMMAND", "INFO", s.name()), StandardCharsets.UTF_8);
                    Set<String> expected = new LinkedHashSet<>();
                    Matcher m = Pattern.compile("\\+@(\\w+)\r\n").matcher(reply);
                    while (m.find()) {
                        expected.add(m.group(1));
                    }
                    if (!expected.equals(AclCategories.of(s))) {
                        differences.add(s.name() + ": redis " + expected + ", most " + AclCategories.of(s));
                    }
                }
            }
            assertTrue(differences.isEmpty(), String.join("\n", differences));
        }
    }

    @Test
    void aWrongPasswordCostsOnlyTheError() throws Exception {
        try (CacheServer most = CacheServer.start(TestServers.small(dir.resolve("most"))
                .security(SecuritySettings.DEFAULT.withRequirePass("right")).build());
             RespClient c = new RespClient(most.address().getPort())) {
            for (int i = 0; i < 200; i++) {
                assertEquals("-WRONGPASS invalid username-password pair or user is disabled.\r\n",
                        c.callText("AUTH", "wrong" + i));
            }
            assertEquals("-NOAUTH Authentication required.\r\n", c.callText("PING"), "still open, still anonymous");
            assertEquals("+OK\r\n", c.callText("AUTH", "right"));
            assertEquals("+PONG\r\n", c.callText("PING"));
            assertEquals("-WRONGPASS invalid username-password pair or user is disabled.\r\n", c.callText("AUTH", "no"));
            assertEquals("+PONG\r\n", c.callText("PING"), "a failed AUTH keeps the user the connection had");
        }
    }

    @Test
    void aMalformedAclFileIsAStartupErrorNamingFileAndLine() throws Exception {
        List<String[]> cases = List.of(
                new String[] {"user a on >secretpw ~* +@all\nuser b on >topsecret +nosuchcmd\n", "line 2",
                        "Unknown command or category name in ACL"},
                new String[] {"user a on\n\nusr b\n", "line 3", "should start with user keyword"},
                new String[] {"# a comment, which Redis refuses too\n", "line 1", "should start with user keyword"},
                new String[] {"user a on >x\nuser a off\n", "line 2", "Duplicate user 'a'"},
                new String[] {"user a on #abc ~*\n", "line 1", "must be exactly 64 characters"},
                new String[] {"user a on allkeys ~x\n", "line 1", "resetkeys"},
                new String[] {"user a on +@nosuchcategory\n", "line 1", "Unknown command or category"},
                new String[] {"user a on %R~x\n", "line 1", "not supported"},
                new String[] {"user a on bogus\n", "line 1", "Syntax error"});
        int n = 0;
        for (String[] c : cases) {
            Path acl = dir.resolve("bad" + n++ + ".acl");
            Files.writeString(acl, c[0]);
            AclFileException e = assertThrows(AclFileException.class, () -> CacheServer.start(
                    TestServers.small(dir.resolve("most")).security(SecuritySettings.DEFAULT.withAclFile(acl)).build()));
            assertTrue(e.getMessage().contains(acl.toString()) && e.getMessage().contains(c[1])
                    && e.getMessage().contains(c[2]), e.getMessage());
            assertFalse(e.getMessage().contains("secret"), "no password in the error: " + e.getMessage());
        }
        AclFileException missing = assertThrows(AclFileException.class, () -> CacheServer.start(TestServers
                .small(dir.resolve("most")).security(SecuritySettings.DEFAULT.withAclFile(dir.resolve("none"))).build()));
        assertTrue(missing.getMessage().contains(dir.resolve("none").toString()), missing.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SecuritySettings.DEFAULT.withRequirePass("x")
                .withAclFile(dir.resolve("a.acl")));
    }

    private void compare(Path aclFile, String requirePass, List<List<String>> steps) throws Exception {
        Files.createDirectories(dir.resolve("redis"));
        List<String> args = new ArrayList<>();
        SecuritySettings security = SecuritySettings.DEFAULT;
        if (aclFile != null) {
            args.addAll(List.of("--aclfile", aclFile.toString()));
            security = security.withAclFile(aclFile);
        }
        if (requirePass != null) {
            args.addAll(List.of("--requirepass", requirePass));
            security = security.withRequirePass(requirePass);
        }
        List<String> differences = new ArrayList<>();
        try (RedisServerProcess redis = RedisServerProcess.start(dir.resolve("redis"), args.toArray(String[]::new));
             CacheServer most = CacheServer.start(TestServers.small(dir.resolve("most")).security(security).build());
             RespClient r = new RespClient(redis.port());
             RespClient m = new RespClient(most.address().getPort())) {
            for (List<String> step : steps) {
                String[] a = step.toArray(String[]::new);
                String expected = show(r.call(a));
                String actual = show(m.call(a));
                if (!expected.equals(actual)) {
                    differences.add(String.join(" ", step) + "\n    most:  " + actual + "\n    redis: " + expected);
                }
            }
        }
        assertTrue(differences.isEmpty(), differences.size() + " replies differ:\n" + String.join("\n", differences));
    }

    private static String show(byte[] reply) throws IOException {
        return new String(reply, StandardCharsets.UTF_8).replace("\r\n", "\\r\\n");
    }
}
