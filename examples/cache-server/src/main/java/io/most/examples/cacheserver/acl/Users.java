package io.most.examples.cacheserver.acl;

import io.most.examples.cacheserver.command.CommandTable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/**
 * The server's ACL users, fixed at start: from an ACL file, or Redis's {@code default} user alone (with
 * {@code requirepass}'s password, or {@code nopass}). Thread-safe (immutable).
 */
public final class Users {
    /** The user a connection starts as, and the one {@code AUTH password} names. */
    public static final String DEFAULT = "default";

    /** By name in byte order, as Redis lists them. */
    private final Map<String, AclUser> byName;

    private Users(Map<String, AclUser> byName) {
        this.byName = byName;
    }

    /**
     * The users a server starts with.
     *
     * @param requirePass the default user's password, null for none
     * @param aclFile     the ACL file, null for none; when it defines no default user, Redis's default
     *                    user (with {@code requirePass}) is added
     * @throws AclFileException if the ACL file is bad
     */
    public static Users load(String requirePass, Path aclFile, CommandTable commands) {
        Map<String, AclUser> users = new TreeMap<>();
        if (aclFile != null) {
            users.putAll(AclFile.read(aclFile, commands));
        }
        users.computeIfAbsent(DEFAULT, n -> AclRules.defaultUser(commands,
                requirePass == null ? null : requirePass.getBytes(StandardCharsets.UTF_8)));
        return new Users(users);
    }

    /** The {@code default} user. */
    public AclUser defaultUser() {
        return byName.get(DEFAULT);
    }

    /**
     * Whether a new connection must authenticate: the default user is off or has a password (Redis's
     * {@code authRequired}). When it need not, the connection runs as the default user.
     */
    public boolean authRequired() {
        AclUser d = defaultUser();
        return !d.nopass() || !d.enabled();
    }

    /**
     * The user {@code name} if {@code password} opens it, else null. An unknown name costs the same
     * password hashing and comparison as a known one.
     */
    public AclUser authenticate(String name, byte[] password) {
        AclUser user = byName.get(name);
        if (user == null) {
            defaultUser().accepts(password); // same work, result unused: the time does not tell a name exists
            return null;
        }
        return user.accepts(password) ? user : null;
    }

    /** Every user, by name in byte order. */
    public Collection<AclUser> all() {
        return byName.values();
    }
}
