package io.most.examples.cacheserver.command;

import static io.most.examples.cacheserver.command.CommandSpec.command;
import static io.most.examples.cacheserver.command.CommandSpec.container;

import io.most.examples.cacheserver.acl.AclUser;
import io.most.examples.cacheserver.acl.Users;
import io.most.examples.cacheserver.protocol.Replies;
import io.netty.handler.codec.redis.RedisMessage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code AUTH [user] password} and {@code ACL WHOAMI}, {@code ACL LIST}, {@code ACL USERS}, with
 * Redis 7.0's replies. A wrong password is answered {@code -WRONGPASS} at once and leaves the
 * connection as it was (open, as the user it was): no delay, no disconnection. The users are fixed at
 * start (no {@code ACL SETUSER}, {@code ACL LOAD}).
 */
final class AclCommands {

    private AclCommands() {
    }

    static List<CommandSpec> specs() {
        return List.of(
                command("auth", -2, "noscript loading stale fast no_auth allow_busy", 0, 0, 0, "connection",
                        "Authenticate to the server", AclCommands::auth),
                container("acl", "server", "A container for Access List Control commands", null, List.of(
                        command("acl|whoami", 2, "noscript loading stale", 0, 0, 0, "server",
                                "Return the name of the user associated to the current connection",
                                (s, a) -> Replies.bulk(s.user().name())),
                        command("acl|list", 2, "admin noscript loading stale", 0, 0, 0, "server",
                                "List the current ACL rules in ACL config file format", AclCommands::list),
                        command("acl|users", 2, "admin noscript loading stale", 0, 0, 0, "server",
                                "List the username of all the configured ACL rules", AclCommands::users))));
    }

    private static RedisMessage auth(Session s, List<byte[]> a) {
        if (a.size() > 3) {
            throw CommandException.syntax();
        }
        Users users = s.server().users();
        if (a.size() == 2 && users.defaultUser().nopass()) {
            throw new CommandException("ERR AUTH <password> called without any password configured for the default"
                    + " user. Are you sure your configuration is correct?");
        }
        String name = a.size() == 2 ? Users.DEFAULT : new String(a.get(1), StandardCharsets.UTF_8);
        AclUser user = users.authenticate(name, a.get(a.size() - 1));
        if (user == null) {
            throw new CommandException("WRONGPASS invalid username-password pair or user is disabled.");
        }
        s.authenticatedAs(user);
        return Replies.OK;
    }

    private static RedisMessage list(Session s, List<byte[]> a) {
        List<RedisMessage> out = new ArrayList<>();
        for (AclUser user : s.server().users().all()) {
            out.add(Replies.bulk(user.describe()));
        }
        return Replies.array(out);
    }

    private static RedisMessage users(Session s, List<byte[]> a) {
        List<RedisMessage> out = new ArrayList<>();
        for (AclUser user : s.server().users().all()) {
            out.add(Replies.bulk(user.name()));
        }
        return Replies.array(out);
    }
}
