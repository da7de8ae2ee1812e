package io.most.examples.cacheserver.command;

import io.most.examples.cacheserver.ServerSettings;
import io.most.examples.cacheserver.acl.Users;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What commands see of the server: the keyspace, the counters, the settings, the ACL users, the
 * address it listens on, and how to shut it down.
 *
 * @param keyspace the cache as Redis database 0, for every user that is not a tenant
 * @param tenants  the users served from caches of their own (their namespaces), none without tenants
 * @param stats    connection and command counters
 * @param settings what the server was started with
 * @param users    the ACL users, fixed at start
 * @param address  the bound address (the real port when the settings asked for any)
 * @param shutdown starts a graceful shutdown without waiting for it (called from an event loop)
 */
public record ServerContext(Keyspace keyspace, TenantCaches tenants, ServerStats stats, ServerSettings settings, Users users,
                            Supplier<InetSocketAddress> address, Runnable shutdown) {

    public ServerContext {
        Objects.requireNonNull(keyspace, "keyspace");
        Objects.requireNonNull(tenants, "tenants");
        Objects.requireNonNull(stats, "stats");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(users, "users");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(shutdown, "shutdown");
    }

    /**
     * The keyspace {@code user}'s commands run on: its own cache if it is a tenant, else database 0. A
     * tenant's keys are in no other keyspace, so no command of another user can name, list or delete them.
     */
    public Keyspace keyspaceOf(io.most.examples.cacheserver.acl.AclUser user) {
        Keyspace own = tenants.keyspace(user.name());
        return own != null ? own : keyspace;
    }
}
