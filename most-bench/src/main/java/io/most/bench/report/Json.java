package io.most.bench.report;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;

/**
 * A small JSON writer for reports: maps (insertion order kept), lists, strings, numbers, booleans
 * and null. Non-finite doubles become {@code null}, since JSON has no NaN; integral doubles print
 * without a fraction. Output is indented two spaces per level so reports diff well.
 */
public final class Json {
    private Json() {
    }

    /** {@code value} as indented JSON text, ending without a newline. */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(out, value, 0);
        return out.toString();
    }

    /**
     * Writes {@code json} to the file {@code target}, or to {@code out} if it is {@code -}; a file
     * written is announced on {@code err}.
     */
    public static void output(String target, String json, PrintStream out, PrintStream err) {
        if (target.equals("-")) {
            out.println(json);
            out.flush();
            return;
        }
        try {
            Files.writeString(Path.of(target), json + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
        }
        err.println("wrote " + target);
    }

    private static void write(StringBuilder out, Object value, int depth) {
        switch (value) {
            case null -> out.append("null");
            case String s -> string(out, s);
            case Boolean b -> out.append(b);
            case Double d -> number(out, d);
            case Float f -> number(out, f.doubleValue());
            case Long l -> out.append(l);
            case Integer i -> out.append(i);
            case Short s -> out.append(s);
            case Byte b -> out.append(b);
            case BigInteger b -> out.append(b);
            case BigDecimal b -> out.append(b.toString());
            case Map<?, ?> map -> object(out, map, depth);
            case Iterable<?> list -> array(out, list.iterator(), depth);
            case Object[] array -> array(out, java.util.Arrays.asList(array).iterator(), depth);
            default -> throw new IllegalArgumentException("cannot write " + value.getClass().getName() + " as JSON");
        }
    }

    private static void number(StringBuilder out, double d) {
        if (!Double.isFinite(d)) {
            out.append("null");
        } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            out.append((long) d);
        } else {
            out.append(d); // Double.toString is valid JSON, exponent included
        }
    }

    private static void object(StringBuilder out, Map<?, ?> map, int depth) {
        if (map.isEmpty()) {
            out.append("{}");
            return;
        }
        out.append('{');
        boolean first = true;
        for (Map.Entry<?, ?> e : map.entrySet()) {
            out.append(first ? "\n" : ",\n");
            first = false;
            indent(out, depth + 1);
            string(out, String.valueOf(e.getKey()));
            out.append(": ");
            write(out, e.getValue(), depth + 1);
        }
        out.append('\n');
        indent(out, depth);
        out.append('}');
    }

    private static void array(StringBuilder out, Iterator<?> items, int depth) {
        if (!items.hasNext()) {
            out.append("[]");
            return;
        }
        out.append('[');
        boolean first = true;
        while (items.hasNext()) {
            out.append(first ? "\n" : ",\n");
            first = false;
            indent(out, depth + 1);
            write(out, items.next(), depth + 1);
        }
        out.append('\n');
        indent(out, depth);
        out.append(']');
    }

    private static void indent(StringBuilder out, int depth) {
        out.repeat("  ", depth);
    }

    /** Appends {@code s} as a JSON string literal. */
    static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    // control characters must be escaped; U+2028/9 too, so reports embed safely in JavaScript
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
