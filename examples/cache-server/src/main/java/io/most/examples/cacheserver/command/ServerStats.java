package io.most.examples.cacheserver.command;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/** Counters of the server's connections and commands, for {@code INFO}. Thread-safe. */
public final class ServerStats {
    private final LongAdder commandsProcessed = new LongAdder();
    private final LongAdder connectionsReceived = new LongAdder();
    private final LongAdder rejectedConnections = new LongAdder();
    private final LongAdder protocolErrors = new LongAdder();
    private final AtomicInteger connectedClients = new AtomicInteger();
    private final long startMillis = System.currentTimeMillis();

    /** Counts one command run (errors included). */
    public void commandProcessed() {
        commandsProcessed.increment();
    }

    /** Counts one accepted connection. */
    public void connectionReceived() {
        connectionsReceived.increment();
    }

    /** Counts one connection refused by the client limit. */
    public void connectionRejected() {
        rejectedConnections.increment();
    }

    /** Counts one connection closed for malformed input. */
    public void protocolError() {
        protocolErrors.increment();
    }

    /** The gauge of connected clients (the client limit increments and decrements it). */
    public AtomicInteger connectedClients() {
        return connectedClients;
    }

    public long commandsProcessed() {
        return commandsProcessed.sum();
    }

    public long connectionsReceived() {
        return connectionsReceived.sum();
    }

    public long rejectedConnections() {
        return rejectedConnections.sum();
    }

    public long protocolErrors() {
        return protocolErrors.sum();
    }

    /** When the server started, in epoch milliseconds. */
    public long startMillis() {
        return startMillis;
    }
}
