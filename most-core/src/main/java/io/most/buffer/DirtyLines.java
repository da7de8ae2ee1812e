package io.most.buffer;

import java.lang.foreign.MemorySegment;

/**
 * The 64-byte cache lines of one page that a PM update changed: a bitmap over the page's lines
 * (line {@code i} covers bytes {@code [64 i, 64 i + 64)} of the frame), filled by comparing the
 * frame before and after the update. Spitfire persists only the lines an update dirtied; this is the
 * set it persists ({@link PmRedoLog}).
 *
 * <p>Not thread-safe: each instance belongs to one redo slot, used by the thread that holds it.
 */
final class DirtyLines {
    /** Bytes per line: the unit in which a CPU writes back (and PM persists) cache contents. */
    static final int LINE = 64;

    private final int lines;
    private final long[] words;

    /** A set over the lines of a {@code frameBytes}-byte frame, empty. */
    DirtyLines(int frameBytes) {
        if (frameBytes <= 0 || frameBytes % LINE != 0) {
            throw new IllegalArgumentException("frame of " + frameBytes + " bytes is not a positive multiple of "
                    + LINE + "-byte lines");
        }
        this.lines = frameBytes / LINE;
        this.words = new long[(lines + 63) / 64];
    }

    /** Lines in the frame. */
    int lines() {
        return lines;
    }

    /** 64-bit words of the bitmap ({@link #word}). */
    int wordCount() {
        return words.length;
    }

    /** Word {@code i} of the bitmap: bit {@code b} is line {@code 64 i + b}. */
    long word(int i) {
        return words[i];
    }

    /** Replaces word {@code i} of the bitmap (a bitmap read back from a redo record); stray bits past the last line are dropped. */
    void setWord(int i, long bits) {
        int valid = lines - 64 * i;
        words[i] = valid >= 64 ? bits : bits & ((1L << valid) - 1);
    }

    /** Adds every line of {@code other} (a set over the same frame size). */
    void addAll(DirtyLines other) {
        for (int w = 0; w < words.length; w++) {
            words[w] |= other.words[w];
        }
    }

    void clear() {
        java.util.Arrays.fill(words, 0L);
    }

    void mark(int line) {
        checkLine(line);
        words[line >>> 6] |= 1L << line;
    }

    boolean isDirty(int line) {
        checkLine(line);
        return (words[line >>> 6] & 1L << line) != 0;
    }

    /** Number of dirty lines. */
    int count() {
        int n = 0;
        for (long w : words) {
            n += Long.bitCount(w);
        }
        return n;
    }

    /**
     * Marks every line holding a byte in {@code [from, size)} where {@code before} and {@code after}
     * differ. Both segments are frames of this set's size; equal stretches are skipped with
     * {@link MemorySegment#mismatch}, so an update that changed a few lines costs one vectorised pass.
     */
    void markDifferences(MemorySegment before, MemorySegment after, long from) {
        long end = (long) lines * LINE;
        if (before.byteSize() != end || after.byteSize() != end) {
            throw new IllegalArgumentException("frames of " + before.byteSize() + " and " + after.byteSize()
                    + " bytes compared over lines of a " + end + "-byte frame");
        }
        long pos = from;
        while (pos < end) {
            long d = MemorySegment.mismatch(before, pos, end, after, pos, end);
            if (d < 0) {
                return;
            }
            int line = (int) ((pos + d) / LINE);
            mark(line);
            pos = (long) (line + 1) * LINE;
        }
    }

    /** The first dirty line at or after {@code from}, or -1 if none. */
    int nextDirty(int from) {
        if (from >= lines) {
            return -1;
        }
        int w = from >>> 6;
        long bits = words[w] & (-1L << from);
        while (true) {
            if (bits != 0) {
                int line = w * 64 + Long.numberOfTrailingZeros(bits);
                return line < lines ? line : -1;
            }
            if (++w == words.length) {
                return -1;
            }
            bits = words[w];
        }
    }

    /** The first clean line at or after {@code from} ({@link #lines()} if none): the end of a run of dirty lines. */
    int nextClean(int from) {
        if (from >= lines) {
            return lines;
        }
        int w = from >>> 6;
        long bits = ~words[w] & (-1L << from);
        while (true) {
            if (bits != 0) {
                return Math.min(lines, w * 64 + Long.numberOfTrailingZeros(bits));
            }
            if (++w == words.length) {
                return lines;
            }
            bits = ~words[w];
        }
    }

    private void checkLine(int line) {
        if (line < 0 || line >= lines) {
            throw new IndexOutOfBoundsException("line " + line + " outside 0.." + (lines - 1));
        }
    }
}
