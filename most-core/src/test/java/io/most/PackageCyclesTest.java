package io.most;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packages of most-core's main sources form no dependency cycle: a package can be read, tested
 * and replaced after the packages it uses, never together with one that uses it. A dependency is
 * what the compiler sees, as {@code jdeps} would: an import (static or not) or a qualified name in
 * code, of a type of another most-core package; comments and string literals do not count.
 * MOST's exceptions live in {@code io.most.errors}, which imports nothing, so that every package may
 * throw them; the placement vocabulary and policy SPI live with the policies in {@code io.most.tier.policy},
 * which the volume in {@code io.most.tier} uses and which never uses the volume.
 */
class PackageCyclesTest {
    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    private static final Pattern IMPORT = Pattern.compile("^import\\s+(?:static\\s+)?([\\w.]+)(?:\\.\\*)?\\s*;",
            Pattern.MULTILINE);
    /** A qualified name in code: lower-case package segments, then a type (upper-case first letter). */
    private static final Pattern QUALIFIED = Pattern.compile("\\b(io\\.most(?:\\.[a-z][a-z0-9_]*)*)\\.[A-Z]");

    @Test
    void mostCoreHasNoPackageCycle() {
        Map<String, Map<String, Set<String>>> graph = dependencies(mainSources());
        List<Set<String>> cycles = cycles(graph);
        StringBuilder found = new StringBuilder();
        for (Set<String> cycle : cycles) {
            found.append("\n  ").append(describe(cycle, graph));
        }
        assertTrue(found.isEmpty(), "package cycles in most-core (break them: move the type that"
                + " points back, or reach it through an interface of the package it would import):" + found);
    }

    @Test
    void theApiPackageNamesNothingOfTheBufferManager() {
        Map<String, Set<String>> fromApi = dependencies(mainSources()).get("io.most");
        assertFalse(fromApi.containsKey("io.most.buffer"),
                () -> "io.most uses io.most.buffer in " + fromApi.get("io.most.buffer")
                        + ": the API must reach its implementation through PageStoreImplementation only");
    }

    /** The check itself, on sources made up here: it finds a cycle through imports and qualified names. */
    @Test
    void findsACycleOfImportsAndQualifiedNames() {
        Map<Path, String> sources = Map.of(
                Path.of("a/A.java"), "package io.most.a;\nimport io.most.b.B;\n// io.most.c.C in a comment\nclass A {}\n",
                Path.of("b/B.java"), "package io.most.b;\nclass B { io.most.a.A a; String s = \"io.most.c.C\"; }\n",
                Path.of("c/C.java"), "package io.most.c;\nimport static io.most.a.A.field;\nclass C {}\n");
        Map<String, Map<String, Set<String>>> graph = dependencies(sources);
        assertEquals(Set.of("io.most.b"), graph.get("io.most.a").keySet(), "comments do not count");
        assertEquals(Set.of("io.most.a"), graph.get("io.most.b").keySet(), "string literals do not count");
        assertEquals(Set.of("io.most.a"), graph.get("io.most.c").keySet(), "static imports count");
        assertEquals(List.of(Set.of("io.most.a", "io.most.b")), cycles(graph));
    }

    private static Map<Path, String> mainSources() {
        Path root = Path.of(System.getProperty("basedir", ".")).resolve("src/main/java");
        assertTrue(Files.isDirectory(root.resolve("io/most")), "no most-core sources under " + root.toAbsolutePath());
        Map<Path, String> sources = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            // module-info.java belongs to no package, and its exports are no dependency
            for (Path file : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java")
                    && !p.endsWith("module-info.java"))::iterator) {
                sources.put(root.relativize(file), Files.readString(file));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sources;
    }

    /** Package -> the other io.most packages it uses -> the files that use each. */
    private static Map<String, Map<String, Set<String>>> dependencies(Map<Path, String> sources) {
        Map<String, String> packageOf = new HashMap<>();
        sources.forEach((file, text) -> {
            Matcher m = PACKAGE.matcher(text);
            assertTrue(m.find(), file + " has no package declaration");
            packageOf.put(file.toString(), m.group(1));
        });
        Set<String> packages = new TreeSet<>(packageOf.values());
        Map<String, Map<String, Set<String>>> graph = new TreeMap<>();
        packages.forEach(p -> graph.put(p, new TreeMap<>()));
        sources.forEach((file, text) -> {
            String from = packageOf.get(file.toString());
            String code = withoutCommentsAndStrings(text);
            List<String> used = new ArrayList<>();
            Matcher imports = IMPORT.matcher(code);
            while (imports.find()) {
                used.add(packageOfName(imports.group(1)));
            }
            Matcher qualified = QUALIFIED.matcher(code.substring(code.indexOf(';') + 1)); // past the package line
            while (qualified.find()) {
                used.add(qualified.group(1));
            }
            for (String to : used) {
                if (!to.equals(from) && packages.contains(to)) {
                    graph.get(from).computeIfAbsent(to, k -> new TreeSet<>()).add(file.toString());
                }
            }
        });
        return graph;
    }

    /** The package of a qualified type or member name: its segments before the first capitalized one. */
    private static String packageOfName(String name) {
        String[] parts = name.split("\\.");
        StringBuilder p = new StringBuilder();
        for (String part : parts) {
            if (Character.isUpperCase(part.charAt(0))) {
                break;
            }
            p.append(p.isEmpty() ? "" : ".").append(part);
        }
        return p.toString();
    }

    /** {@code text} with comments, string and character literals and text blocks blanked out. */
    static String withoutCommentsAndStrings(String text) {
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (text.startsWith("//", i)) {
                int end = text.indexOf('\n', i);
                i = end < 0 ? n : end;
            } else if (text.startsWith("/*", i)) {
                int end = text.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                out.append(' ');
            } else if (text.startsWith("\"\"\"", i)) {
                int end = text.indexOf("\"\"\"", i + 3);
                i = end < 0 ? n : end + 3;
                out.append("\"\"");
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && text.charAt(j) != c) {
                    j += text.charAt(j) == '\\' ? 2 : 1;
                }
                i = Math.min(n, j + 1);
                out.append(c).append(c);
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** The strongly connected components of more than one package (Tarjan's algorithm). */
    private static List<Set<String>> cycles(Map<String, Map<String, Set<String>>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new java.util.HashSet<>();
        List<Set<String>> components = new ArrayList<>();
        for (String p : graph.keySet()) {
            if (!index.containsKey(p)) {
                connect(p, graph, index, low, stack, onStack, components);
            }
        }
        return components;
    }

    private static void connect(String p, Map<String, Map<String, Set<String>>> graph, Map<String, Integer> index,
                                Map<String, Integer> low, Deque<String> stack, Set<String> onStack,
                                List<Set<String>> components) {
        index.put(p, index.size());
        low.put(p, index.get(p));
        stack.push(p);
        onStack.add(p);
        for (String q : graph.get(p).keySet()) {
            if (!index.containsKey(q)) {
                connect(q, graph, index, low, stack, onStack, components);
                low.put(p, Math.min(low.get(p), low.get(q)));
            } else if (onStack.contains(q)) {
                low.put(p, Math.min(low.get(p), index.get(q)));
            }
        }
        if (low.get(p).equals(index.get(p))) {
            Set<String> component = new TreeSet<>();
            String q;
            do {
                q = stack.pop();
                onStack.remove(q);
                component.add(q);
            } while (!q.equals(p));
            if (component.size() > 1) {
                components.add(component);
            }
        }
    }

    /** A cycle's packages and, for each edge inside it, the files that make it. */
    private static String describe(Set<String> cycle, Map<String, Map<String, Set<String>>> graph) {
        StringBuilder s = new StringBuilder(cycle.toString());
        for (String from : cycle) {
            graph.get(from).forEach((to, files) -> {
                if (cycle.contains(to)) {
                    s.append("\n    ").append(from).append(" -> ").append(to).append(": ").append(files);
                }
            });
        }
        return s.toString();
    }
}
