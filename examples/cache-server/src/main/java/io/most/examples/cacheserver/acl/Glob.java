package io.most.examples.cacheserver.acl;

/**
 * Redis's glob patterns ({@code CONFIG GET max*}): {@code *} any run, {@code ?} any one character,
 * {@code [abc]} / {@code [a-z]} / {@code [^a]} a class, {@code \x} a literal.
 */
public final class Glob {

    private Glob() {
    }

    /** Whether {@code text} matches {@code pattern} whole. */
    public static boolean matches(String pattern, String text) {
        // one pass with a single backtrack point (the last '*'), so that a pattern of many stars costs
        // O(pattern x text) rather than the exponential time of trying every split: KEYS and SCAN
        // MATCH take patterns from clients
        int pi = 0;
        int ti = 0;
        int starP = -1;
        int starT = 0;
        while (ti < text.length()) {
            int next = pi < pattern.length() ? step(pattern, pi, text.charAt(ti)) : -1;
            if (pi < pattern.length() && pattern.charAt(pi) == '*') {
                starP = pi++;
                starT = ti;
            } else if (next >= 0) {
                pi = next;
                ti++;
            } else if (starP >= 0) {
                pi = starP + 1;
                ti = ++starT;
            } else {
                return false;
            }
        }
        while (pi < pattern.length() && pattern.charAt(pi) == '*') {
            pi++;
        }
        return pi == pattern.length();
    }

    /**
     * Where the pattern continues if its element at {@code pi} (not a star) matches {@code ch}, or -1.
     */
    private static int step(String p, int pi, char ch) {
        char c = p.charAt(pi);
        switch (c) {
            case '*' -> {
                return -1;
            }
            case '?' -> {
                return pi + 1;
            }
            case '[' -> {
                int end = p.indexOf(']', pi + 1);
                if (end < 0) {
                    return -1;
                }
                return inClass(p.substring(pi + 1, end), ch) ? end + 1 : -1;
            }
            default -> {
                if (c == '\\' && pi + 1 < p.length()) {
                    return p.charAt(pi + 1) == ch ? pi + 2 : -1;
                }
                return c == ch ? pi + 1 : -1;
            }
        }
    }

    private static boolean inClass(String cls, char ch) {
        boolean negate = cls.startsWith("^");
        String body = negate ? cls.substring(1) : cls;
        boolean found = false;
        for (int i = 0; i < body.length(); i++) {
            if (i + 2 < body.length() && body.charAt(i + 1) == '-') {
                char lo = (char) Math.min(body.charAt(i), body.charAt(i + 2));
                char hi = (char) Math.max(body.charAt(i), body.charAt(i + 2));
                found |= ch >= lo && ch <= hi;
                i += 2;
            } else {
                found |= body.charAt(i) == ch;
            }
        }
        return found != negate;
    }
}
