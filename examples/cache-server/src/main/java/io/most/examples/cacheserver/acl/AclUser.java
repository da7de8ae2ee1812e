package io.most.examples.cacheserver.acl;

import io.most.examples.cacheserver.command.CommandSpec;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One ACL user as Redis 7 defines it, in the subset this server enforces: enabled or not, its password
 * hashes (or {@code nopass}), the key patterns it may touch ({@code ~pattern}, {@code allkeys}) and the
 * commands it may run (categories and commands added and removed in order). Immutable: built from
 * rules by {@link AclRules}; thread-safe.
 *
 * <p>Channel patterns ({@code &pattern}) are kept for {@code ACL LIST} only: this server has no
 * pub/sub.
 */
public final class AclUser {
    private final String name;
    private final boolean enabled;
    private final boolean nopass;
    private final List<String> flagsShown;
    private final List<byte[]> passwordHashes;
    private final boolean allKeys;
    private final List<String> keyPatterns;
    private final boolean allChannels;
    private final List<String> channelPatterns;
    private final boolean futureCommands;
    private final String commandRules;
    private final Set<String> allowedCommands;

    AclUser(String name, boolean enabled, boolean nopass, List<String> flagsShown, List<byte[]> passwordHashes,
            boolean allKeys, List<String> keyPatterns, boolean allChannels, List<String> channelPatterns,
            boolean futureCommands, String commandRules, Set<String> allowedCommands) {
        this.name = Objects.requireNonNull(name, "name");
        this.enabled = enabled;
        this.nopass = nopass;
        this.flagsShown = List.copyOf(flagsShown);
        this.passwordHashes = passwordHashes.stream().map(byte[]::clone).toList();
        this.allKeys = allKeys;
        this.keyPatterns = List.copyOf(keyPatterns);
        this.allChannels = allChannels;
        this.channelPatterns = List.copyOf(channelPatterns);
        this.futureCommands = futureCommands;
        this.commandRules = commandRules;
        this.allowedCommands = Set.copyOf(allowedCommands);
    }

    /** The user's name. */
    public String name() {
        return name;
    }

    /** Whether the user may authenticate at all ({@code on}). */
    public boolean enabled() {
        return enabled;
    }

    /** Whether any password opens the user ({@code nopass}). */
    public boolean nopass() {
        return nopass;
    }

    /**
     * Whether {@code password} opens this user: it is enabled and either {@code nopass} or the password's
     * SHA-256 is one of its hashes, compared in constant time.
     */
    public boolean accepts(byte[] password) {
        boolean matches = Passwords.matchesAny(password, passwordHashes);
        return enabled && (nopass || matches);
    }

    /** Whether the user may run {@code spec} (a command, or a subcommand named {@code container|sub}). */
    public boolean mayRun(CommandSpec spec) {
        return allowedCommands.contains(spec.name());
    }

    /** Whether the user may read and write {@code key} (it matches one of its patterns). */
    public boolean mayAccess(byte[] key) {
        if (allKeys) {
            return true;
        }
        // Redis matches patterns on the key's bytes: one char per byte
        String k = new String(key, StandardCharsets.ISO_8859_1);
        for (String pattern : keyPatterns) {
            if (Glob.matches(pattern, k)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the user may touch every key ({@code allkeys} or {@code ~*}). */
    public boolean allKeys() {
        return allKeys;
    }

    /** The user as {@code ACL LIST} prints it, byte for byte as Redis 7.0 does. */
    public String describe() {
        StringBuilder b = new StringBuilder("user ").append(name).append(' ');
        b.append(enabled ? "on " : "off ");
        if (nopass) {
            b.append("nopass ");
        }
        for (String flag : flagsShown) {
            b.append(flag).append(' ');
        }
        for (byte[] hash : passwordHashes) {
            b.append('#').append(Passwords.hex(hash)).append(' ');
        }
        if (allKeys) {
            b.append("~* ");
        } else {
            for (String pattern : keyPatterns) {
                b.append('~').append(pattern).append(' ');
            }
        }
        if (allChannels) {
            b.append("&* ");
        } else {
            b.append("resetchannels ");
            for (String pattern : channelPatterns) {
                b.append('&').append(pattern).append(' ');
            }
        }
        b.append(futureCommands ? "+@all" : "-@all");
        if (!commandRules.isEmpty()) {
            b.append(' ').append(commandRules);
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return "AclUser[" + name + "]"; // never the hashes
    }
}
