package io.most.bench.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The JSON of every report, written by Jackson: maps (insertion order kept), lists, strings, numbers,
 * booleans and null. Two rules of our own on top: non-finite doubles become {@code null} (JSON has no
 * NaN, and a missing measurement is NaN here), and integral doubles print without a fraction (counts
 * computed as doubles read as counts). Output is indented two spaces per level so reports diff well.
 */
public final class Json {
    private static final ObjectMapper MAPPER = mapper();

    private Json() {
    }

    /** {@code value} as indented JSON text, ending without a newline. */
    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write " + (value == null ? null : value.getClass().getName())
                    + " as JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Parses a report back: objects as {@link Map}s in document order, arrays as lists. */
    public static Object read(String text) {
        try {
            return MAPPER.readValue(text, Object.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
        }
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

    private static ObjectMapper mapper() {
        ObjectMapper mapper = new ObjectMapper();
        SimpleModule numbers = new SimpleModule("most-bench-numbers");
        numbers.addSerializer(Double.class, new DoubleSerializer());
        numbers.addSerializer(double.class, new DoubleSerializer());
        numbers.addSerializer(Float.class, new FloatSerializer());
        mapper.registerModule(numbers);
        mapper.getFactory().setCharacterEscapes(new LineSeparatorEscapes());
        DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
        Separators separators = Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                .withObjectEmptySeparator("")
                .withArrayEmptySeparator("");
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter(separators)
                .withObjectIndenter(indenter)
                .withArrayIndenter(indenter);
        mapper.setDefaultPrettyPrinter(printer);
        mapper.enable(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT);
        return mapper;
    }

    private static void writeDouble(double d, JsonGenerator gen) throws IOException {
        if (!Double.isFinite(d)) {
            gen.writeNull();
        } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            gen.writeNumber((long) d);
        } else {
            gen.writeNumber(d);
        }
    }

    private static final class DoubleSerializer extends JsonSerializer<Double> {
        @Override
        public void serialize(Double value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
            writeDouble(value, gen);
        }
    }

    private static final class FloatSerializer extends JsonSerializer<Float> {
        @Override
        public void serialize(Float value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
            writeDouble(value.doubleValue(), gen);
        }
    }

    /** Jackson's standard escapes, plus U+2028/9, so reports embed safely in JavaScript. */
    private static final class LineSeparatorEscapes extends CharacterEscapes {
        private static final long serialVersionUID = 1L;
        private final int[] ascii = standardAsciiEscapesForJSON();

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return ch == 0x2028 || ch == 0x2029
                    ? new com.fasterxml.jackson.core.io.SerializedString(String.format("\\u%04x", ch)) : null;
        }
    }
}
