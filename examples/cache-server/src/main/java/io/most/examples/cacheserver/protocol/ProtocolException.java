package io.most.examples.cacheserver.protocol;

import java.io.Serial;

/**
 * Input that is not a valid request, or one over the server's limits. The connection gets
 * {@code -ERR Protocol error: <reason>} and is closed, as Redis does; the server and the other
 * connections go on.
 */
public final class ProtocolException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** A protocol error; {@code reason} completes "Protocol error: ". */
    public ProtocolException(String reason) {
        super(reason, null, false, false);
    }
}
