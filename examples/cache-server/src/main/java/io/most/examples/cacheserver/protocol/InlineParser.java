package io.most.examples.cacheserver.protocol;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits an inline command ({@code SET "a key" 'it''s'} typed into telnet) into arguments with Redis's
 * rules ({@code sdssplitargs}): blanks separate, double quotes take the escapes {@code \n \r \t \b \a
 * \xHH}, single quotes take {@code \'}, and a closing quote must end the argument.
 */
final class InlineParser {

    private InlineParser() {
    }

    /**
     * The arguments of {@code line}, empty for a blank line.
     *
     * @throws ProtocolException {@code unbalanced quotes in request}
     */
    static List<byte[]> split(byte[] line) {
        List<byte[]> args = new ArrayList<>();
        int p = 0;
        int n = line.length;
        while (true) {
            while (p < n && isSpace(line[p])) {
                p++;
            }
            if (p >= n) {
                return args;
            }
            ByteArrayOutputStream current = new ByteArrayOutputStream();
            boolean inDouble = false;
            boolean inSingle = false;
            boolean done = false;
            while (!done) {
                int c = p < n ? line[p] : -1;
                if (inDouble) {
                    if (c == '\\' && p + 3 < n && line[p + 1] == 'x' && isHex(line[p + 2]) && isHex(line[p + 3])) {
                        current.write(Character.digit(line[p + 2], 16) * 16 + Character.digit(line[p + 3], 16));
                        p += 3;
                    } else if (c == '\\' && p + 1 < n) {
                        p++;
                        current.write(unescape(line[p]));
                    } else if (c == '"' || c == -1) {
                        done = closeQuote(line, p);
                    } else {
                        current.write(c);
                    }
                } else if (inSingle) {
                    if (c == '\\' && p + 1 < n && line[p + 1] == '\'') {
                        p++;
                        current.write('\'');
                    } else if (c == '\'' || c == -1) {
                        done = closeQuote(line, p);
                    } else {
                        current.write(c);
                    }
                } else {
                    switch (c) {
                        case ' ', '\n', '\r', '\t', -1 -> done = true;
                        case '"' -> inDouble = true;
                        case '\'' -> inSingle = true;
                        default -> current.write(c);
                    }
                }
                if (p < n) {
                    p++;
                }
            }
            args.add(current.toByteArray());
        }
    }

    /** At a closing quote ({@code p} in the line) or the line's end: the argument ends, or the quotes do not balance. */
    private static boolean closeQuote(byte[] line, int p) {
        if (p >= line.length || (p + 1 < line.length && !isSpace(line[p + 1]))) {
            throw unbalanced(); // no closing quote, or one followed by more of the argument
        }
        return true;
    }

    private static int unescape(byte b) {
        return switch (b) {
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case 'b' -> '\b';
            case 'a' -> 7;
            default -> b;
        };
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == 0x0b || b == '\f';
    }

    private static boolean isHex(byte b) {
        return Character.digit(b, 16) >= 0;
    }

    private static ProtocolException unbalanced() {
        return new ProtocolException("unbalanced quotes in request");
    }
}
