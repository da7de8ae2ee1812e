package io.most;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Byte counts as people write them on a command line or in a properties file: {@code 4096},
 * {@code 64k}, {@code 256m}, {@code 1g}, {@code 2t} (binary units; a trailing {@code b} or
 * {@code ib} and any case are accepted: {@code 64KiB}, {@code 2mb}), and back to text.
 * One parser for every tool of the project, so that a size means the same everywhere.
 */
public final class Sizes {
    private static final Pattern SIZE = Pattern.compile("(\\d+)([kmgt]?)(?:i?b)?");
    private static final String FORMS = "a number of bytes with an optional suffix k, m, g or t"
            + " (e.g. 4096, 64k, 256m, 1g)";

    private Sizes() {
    }

    /**
     * The number of bytes {@code text} says; zero is a size (callers that need a positive one check).
     *
     * @throws InvalidSizeException naming {@code text} and the accepted forms, if it is no size or
     *                              past a {@code long}
     */
    public static long parse(String text) {
        Matcher m = SIZE.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new InvalidSizeException("'" + text + "' is not a size: expected " + FORMS);
        }
        int shift = switch (m.group(2)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            case "t" -> 40;
            default -> 0;
        };
        long value;
        try {
            value = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new InvalidSizeException("'" + text + "' is too large: at most " + Long.MAX_VALUE + " bytes");
        }
        if (value != 0 && Long.numberOfLeadingZeros(value) <= shift) {
            throw new InvalidSizeException("'" + text + "' is too large: at most " + Long.MAX_VALUE + " bytes");
        }
        return value << shift;
    }

    /** A byte count in the largest binary unit that keeps it readable: {@code 256 MiB}, {@code 1.5 GiB}. */
    public static String format(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double value = bytes;
        int unit = 0;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return value == Math.rint(value)
                ? String.format(Locale.ROOT, "%d %s", (long) value, units[unit])
                : String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
    }

    /** A text that is no byte count, or one past a {@code long}; the message names the text and the forms. */
    public static final class InvalidSizeException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        /** @param message the text that failed and what was expected */
        public InvalidSizeException(String message) {
            super(message);
        }
    }
}
