package io.most.examples.cacheserver.acl;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * Passwords as Redis keeps them: only their SHA-256, compared in constant time. A password given in
 * clear ({@code >secret}) is hashed at once and the clear text is not kept; a hash given as
 * {@code #<64 lowercase hex digits>} is taken as is, as Redis accepts it.
 */
final class Passwords {
    /** Length of a hash written as hex, as Redis requires it. */
    static final int HEX_LENGTH = 64;

    private Passwords() {
    }

    /** SHA-256 of {@code password}. */
    static byte[] hash(byte[] password) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(password);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** SHA-256 of a password given as text (UTF-8, as the ACL file holds it). */
    static byte[] hash(String password) {
        return hash(password.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The hash written as {@code hex} (what follows {@code #}).
     *
     * @throws IllegalArgumentException with Redis's reason if it is not 64 lowercase hex digits
     */
    static byte[] parseHex(String hex) {
        boolean lowerHex = hex.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
        if (hex.length() != HEX_LENGTH || !lowerHex) {
            throw new IllegalArgumentException("The password hash must be exactly 64 characters and contain only"
                    + " lowercase hexadecimal characters");
        }
        return HexFormat.of().parseHex(hex);
    }

    /** The hash as Redis prints it in {@code ACL LIST}: 64 lowercase hex digits. */
    static String hex(byte[] hash) {
        return HexFormat.of().formatHex(hash);
    }

    /**
     * Whether {@code password} hashes to one of {@code hashes}. Every hash is compared whole, whatever
     * matched before, so the time taken says nothing about which password or how much of it matched.
     */
    static boolean matchesAny(byte[] password, List<byte[]> hashes) {
        byte[] candidate = hash(password);
        boolean found = false;
        for (byte[] h : hashes) {
            found |= MessageDigest.isEqual(candidate, h);
        }
        return found;
    }
}
