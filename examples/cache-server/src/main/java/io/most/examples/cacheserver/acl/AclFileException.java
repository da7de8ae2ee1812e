package io.most.examples.cacheserver.acl;

import java.io.Serial;
import java.nio.file.Path;

/**
 * An ACL file the server cannot start with: the message names the file, the line and what is wrong
 * with it (never a password the line holds).
 */
public final class AclFileException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    AclFileException(Path file, int line, String reason) {
        super("ACL file " + file + " line " + line + ": " + reason);
    }

    AclFileException(Path file, String reason, Throwable cause) {
        super("ACL file " + file + ": " + reason, cause);
    }
}
