package io.most.examples.cacheserver.acl;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class GlobTest {

    @Test
    void globsMatchAsRedisDoes() {
        assertTrue(Glob.matches("max*", "maxclients"));
        assertTrue(Glob.matches("*", "save"));
        assertTrue(Glob.matches("*", ""));
        assertTrue(Glob.matches("s?ve", "save"));
        assertTrue(Glob.matches("[a-s]ave", "save"));
        assertFalse(Glob.matches("[^s]ave", "save"));
        assertFalse(Glob.matches("max", "maxclients"));
        assertTrue(Glob.matches("cache:*:x", "cache:a:b:x"));
        assertFalse(Glob.matches("cache:*:x", "cache:a:b:y"));
        assertTrue(Glob.matches("a\\*b", "a*b"));
        assertFalse(Glob.matches("a\\*b", "axb"));
        assertTrue(Glob.matches("*a*b*c", "xxaxxbxxc"));
        assertFalse(Glob.matches("?", ""));
    }

    @Test
    void manyStarsDoNotBacktrackExponentially() {
        // an exponential matcher would not finish this within the test run
        String text = "a".repeat(10_000);
        assertFalse(Glob.matches("*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", text));
        assertTrue(Glob.matches("*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a", text));
    }
}
