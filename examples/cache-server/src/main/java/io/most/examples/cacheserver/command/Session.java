package io.most.examples.cacheserver.command;

import java.util.Objects;

/**
 * One client connection's state: its id and name ({@code CLIENT ID/SETNAME/GETNAME}) and whether the
 * connection is to close after the current reply ({@code QUIT}). Used by the connection's event loop
 * thread only.
 */
public final class Session {
    private final long id;
    private final ServerContext server;
    private byte[] name;
    private boolean closeAfterReply;

    /** A session with {@code id} on {@code server}. */
    public Session(long id, ServerContext server) {
        this.id = id;
        this.server = Objects.requireNonNull(server, "server");
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
