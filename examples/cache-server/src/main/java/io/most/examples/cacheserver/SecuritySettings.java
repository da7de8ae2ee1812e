package io.most.examples.cacheserver;

import java.nio.file.Path;

/**
 * Who may use the server, as Redis configures it.
 *
 * @param requirePass   the default user's password ({@code requirepass}), null for none
 * @param aclFile       the ACL file of the users ({@code aclfile}), null for none; not with {@code requirePass}
 * @param protectedMode Redis's protected mode: while the default user has no password, a client from
 *                      beyond the loopback interface gets Redis's {@code -DENIED} error and is closed
 * @param tls           the TLS listener, null for none
 */
public record SecuritySettings(String requirePass, Path aclFile, boolean protectedMode, TlsSettings tls) {

    /** No password, no ACL file, protected mode on (Redis's defaults), no TLS. */
    public static final SecuritySettings DEFAULT = new SecuritySettings(null, null, true, null);

    public SecuritySettings {
        if (requirePass != null && aclFile != null) {
            throw new IllegalArgumentException("--requirepass and --aclfile together: Redis ignores requirepass when an"
                    + " ACL file is given; set the default user's password in the file instead"
                    + " (user default on >PASSWORD ~* &* +@all)");
        }
        if (requirePass != null && requirePass.isEmpty()) {
            throw new IllegalArgumentException("--requirepass is empty: give a password, or leave the option out");
        }
    }

    /** These settings with {@code password} as the default user's password. */
    public SecuritySettings withRequirePass(String password) {
        return new SecuritySettings(password, aclFile, protectedMode, tls);
    }

    /** These settings with the users of {@code file}. */
    public SecuritySettings withAclFile(Path file) {
        return new SecuritySettings(requirePass, file, protectedMode, tls);
    }

    /** These settings with protected mode on or off. */
    public SecuritySettings withProtectedMode(boolean on) {
        return new SecuritySettings(requirePass, aclFile, on, tls);
    }

    /** These settings with a TLS listener. */
    public SecuritySettings withTls(TlsSettings settings) {
        return new SecuritySettings(requirePass, aclFile, protectedMode, settings);
    }
}
