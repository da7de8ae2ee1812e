package io.most.examples.cacheserver.command;

import io.most.examples.cacheserver.acl.AclUser;
import java.util.Objects;

/**
 * One client connection's state: its id and name ({@code CLIENT ID/SETNAME/GETNAME}), the ACL user it
 * runs as and whether it has authenticated ({@code AUTH}), and whether the connection is to close after
 * the current reply ({@code QUIT}). Used by one thread at a time: the connection's event loop, or the
 * tenant's thread its command was handed to (the handoffs order the accesses).
 */
public final class Session {
    private final long id;
    private final ServerContext server;
    private byte[] name;
    private boolean closeAfterReply;
    private AclUser user;
    private boolean authenticated;

    /**
     * A session with {@code id} on {@code server}: as Redis, it runs as the default user, authenticated
     * already unless the default user needs a password or is off.
     */
    public Session(long id, ServerContext server) {
        this.id = id;
        this.server = Objects.requireNonNull(server, "server");
        this.user = server.users().defaultUser();
        this.authenticated = !server.users().authRequired();
    }

    /** The ACL user the connection runs as. */
    public AclUser user() {
        return user;
    }

    /** The keyspace this connection's user works on: its tenant's own cache, or database 0. */
    public Keyspace keyspace() {
        return server.keyspaceOf(user);
    }

    /**
     * The threads this connection's commands run on when its user is a tenant (so a throttled tenant
     * holds its own threads, not the event loop), null to run them on the event loop.
     */
    public java.util.concurrent.Executor executor() {
        return server.tenants().executor(user.name());
    }

    /** Whether the connection may run commands other than AUTH and QUIT. */
    public boolean authenticated() {
        return authenticated;
    }

    /** The connection runs as {@code user} from now on (a successful {@code AUTH}). */
    void authenticatedAs(AclUser user) {
        this.user = Objects.requireNonNull(user, "user");
        this.authenticated = true;
    }

    public long id() {
        return id;
    }

    /** The server this client is connected to. */
    public ServerContext server() {
        return server;
    }

    /** The client's name, null if none was set. */
    public byte[] name() {
        return name;
    }

    /** Sets the client's name, null or empty to clear it. */
    public void name(byte[] name) {
        this.name = name == null || name.length == 0 ? null : name.clone();
    }

    /** Asks the connection to close once the current reply is written. */
    public void closeAfterReply() {
        closeAfterReply = true;
    }

    /** Whether the connection closes after the current reply. */
    public boolean closingAfterReply() {
        return closeAfterReply;
    }
}
