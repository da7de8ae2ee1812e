package io.most.examples.cacheserver.command;

import io.most.examples.cacheserver.acl.AclUser;
import java.util.List;
import java.util.Set;

/**
 * Whether a session may run a request, checked as Redis 7.0's {@code processCommand} does after the
 * command and its arity are known: {@code -NOAUTH} before authentication (except for {@code no_auth}
 * commands: AUTH, QUIT), then {@code -NOPERM} for a command outside the user's commands, then for a key
 * argument outside its key patterns.
 *
 * <p>One rule goes beyond Redis, where a user limited to some keys but allowed {@code FLUSHALL} may
 * still empty the whole database: commands that change every key at once need {@code allkeys} here,
 * so that a user's commands never delete another tenant's keys.
 */
final class Access {
    private static final String NOAUTH = "NOAUTH Authentication required.";
    private static final String NOPERM_KEY = "NOPERM this user has no permissions to access one of the keys used"
            + " as arguments";
    /** Commands that change every key: only for users allowed every key. */
    private static final Set<String> WHOLE_KEYSPACE = Set.of("flushdb", "flushall");

    private Access() {
    }

    /**
     * Throws the error reply that refuses {@code spec} (the subcommand when there is one) with
     * {@code args} to {@code session}, if any.
     */
    static void check(Session session, CommandSpec top, CommandSpec spec, List<byte[]> args) {
        if (top.flags().contains("no_auth")) {
            return; // AUTH and QUIT: whoever is connected may run them, whatever its rules (as Redis)
        }
        if (!session.authenticated()) {
            throw new CommandException(NOAUTH);
        }
        AclUser user = session.user();
        if (!user.mayRun(spec)) {
            throw new CommandException("NOPERM this user has no permissions to run the '" + spec.name() + "' command");
        }
        if (user.allKeys()) {
            return;
        }
        if (WHOLE_KEYSPACE.contains(spec.name())) {
            throw new CommandException(NOPERM_KEY);
        }
        if (spec.firstKey() > 0) {
            int last = spec.lastKey() < 0 ? args.size() + spec.lastKey() : Math.min(spec.lastKey(), args.size() - 1);
            for (int i = spec.firstKey(); i <= last; i += spec.keyStep()) {
                if (!user.mayAccess(args.get(i))) {
                    throw new CommandException(NOPERM_KEY);
                }
            }
        }
    }
}
