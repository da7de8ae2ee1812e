package io.most.examples.cacheserver.command;

/**
 * Redis's glob patterns ({@code CONFIG GET max*}): {@code *} any run, {@code ?} any one character,
 * {@code [abc]} / {@code [a-z]} / {@code [^a]} a class, {@code \x} a literal.
 */
final class Glob {

    private Glob() {
    }

    /** Whether {@code text} matches {@code pattern} whole. */
    static boolean matches(String pattern, String text) {
        return match(pattern, 0, text, 0);
    }

    private static boolean match(String p, int pi, String t, int ti) {
        while (pi < p.length()) {
            char c = p.charAt(pi);
            switch (c) {
                case '*' -> {
                    while (pi + 1 < p.length() && p.charAt(pi + 1) == '*') {
                        pi++;
                    }
                    for (int k = ti; k <= t.length(); k++) {
                        if (match(p, pi + 1, t, k)) {
                            return true;
                        }
                    }
                    return false;
                }
                case '?' -> {
                    if (ti >= t.length()) {
                        return false;
                    }
                    ti++;
                    pi++;
                }
                case '[' -> {
                    if (ti >= t.length()) {
                        return false;
                    }
                    int end = p.indexOf(']', pi + 1);
                    if (end < 0) {
                        return false;
                    }
                    if (!inClass(p.substring(pi + 1, end), t.charAt(ti))) {
                        return false;
                    }
                    ti++;
                    pi = end + 1;
                }
                default -> {
                    if (c == '\\' && pi + 1 < p.length()) {
                        pi++;
                        c = p.charAt(pi);
                    }
                    if (ti >= t.length() || t.charAt(ti) != c) {
                        return false;
                    }
                    ti++;
                    pi++;
                }
            }
        }
        return ti == t.length();
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
