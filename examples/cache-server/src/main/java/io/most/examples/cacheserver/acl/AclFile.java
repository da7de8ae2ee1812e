package io.most.examples.cacheserver.acl;

import io.most.examples.cacheserver.command.CommandTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a Redis ACL file: one {@code user NAME rule...} per line, empty lines skipped, as Redis's
 * {@code aclfile} (which allows no comments: a file this server takes, redis-server takes too). The
 * whole file is checked before any user is used, and the first bad line stops the server's start with
 * an {@link AclFileException} naming the file and the line. Rules are separated by spaces (Redis's quoting of rules is not supported).
 */
public final class AclFile {

    private AclFile() {
    }

    /**
     * The users {@code file} defines, by name in file order.
     *
     * @throws AclFileException if it cannot be read, a line is not {@code user NAME ...}, a user appears
     *                          twice or a rule is refused
     */
    public static Map<String, AclUser> read(Path file, CommandTable commands) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AclFileException(file, "cannot read it (" + e + "): give a readable file to --aclfile", e);
        }
        Map<String, AclUser> users = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] tokens = line.split("\\s+");
            if (tokens.length < 2 || !tokens[0].equals("user")) {
                throw new AclFileException(file, i + 1, "should start with user keyword followed by the username");
            }
            String name = tokens[1];
            if (users.containsKey(name)) {
                throw new AclFileException(file, i + 1, "Duplicate user '" + name + "' found");
            }
            AclRules rules = new AclRules(commands, name);
            for (int t = 2; t < tokens.length; t++) {
                try {
                    rules.apply(tokens[t]);
                } catch (IllegalArgumentException e) {
                    throw new AclFileException(file, i + 1, "Error in applying operation '" + shown(tokens[t])
                            + "' of user '" + name + "': " + e.getMessage());
                }
            }
            users.put(name, rules.build());
        }
        return users;
    }

    /** A rule as an error may show it: a password rule is named by its kind only. */
    private static String shown(String rule) {
        return !rule.isEmpty() && "><#!".indexOf(rule.charAt(0)) >= 0 ? rule.charAt(0) + "<password>" : rule;
    }
}
