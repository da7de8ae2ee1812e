package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.BitSet;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link DirtyLines}: which 64-byte lines of a frame an update changed, and the runs they form. */
class DirtyLinesTest {

    @Test
    void marksExactlyTheLinesWhoseBytesDiffer() {
        int frame = 16 * 1024;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment before = arena.allocate(frame);
            MemorySegment after = arena.allocate(frame);
            SplittableRandom random = new SplittableRandom(7);
            for (int trial = 0; trial < 50; trial++) {
                for (long i = 0; i < frame; i += 8) {
                    before.set(ValueLayout.JAVA_LONG, i, random.nextLong());
                }
                after.copyFrom(before);
                BitSet expected = new BitSet();
                for (int k = random.nextInt(20); k > 0; k--) {
                    int at = random.nextInt(PageHeader.SIZE, frame);
                    after.set(ValueLayout.JAVA_BYTE, at, (byte) (after.get(ValueLayout.JAVA_BYTE, at) ^ 0x5A));
                    expected.set(at / DirtyLines.LINE);
                }
                DirtyLines lines = new DirtyLines(frame);
                lines.markDifferences(before, after, PageHeader.SIZE);
                assertEquals(expected.cardinality(), lines.count());
                for (int line = 0; line < lines.lines(); line++) {
                    assertEquals(expected.get(line), lines.isDirty(line), "line " + line);
                }
            }
        }
    }

    @Test
    void bytesBeforeTheStartOfTheComparisonAreIgnored() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment before = arena.allocate(4096);
            MemorySegment after = arena.allocate(4096);
            after.set(ValueLayout.JAVA_LONG, 8, 99); // a header field: not part of the payload compared
            DirtyLines lines = new DirtyLines(4096);
            lines.markDifferences(before, after, PageHeader.SIZE);
            assertEquals(0, lines.count());
            after.set(ValueLayout.JAVA_BYTE, PageHeader.SIZE, (byte) 1); // first payload byte, still line 0
            lines.markDifferences(before, after, PageHeader.SIZE);
            assertTrue(lines.isDirty(0));
            assertEquals(1, lines.count());
        }
    }

    @Test
    void runsOfDirtyLinesAreFoundAcrossWordBoundaries() {
        DirtyLines lines = new DirtyLines(16 * 1024); // 256 lines, 4 words
        for (int line : new int[] {0, 1, 62, 63, 64, 65, 200, 255}) {
            lines.mark(line);
        }
        StringBuilder runs = new StringBuilder();
        for (int start = lines.nextDirty(0); start >= 0; ) {
            int end = lines.nextClean(start);
            runs.append('[').append(start).append(',').append(end).append(')');
            start = lines.nextDirty(end);
        }
        assertEquals("[0,2)[62,66)[200,201)[255,256)", runs.toString());
        assertEquals(-1, lines.nextDirty(256));
        assertEquals(256, lines.nextClean(255));
        lines.clear();
        assertEquals(-1, lines.nextDirty(0));
        assertEquals(0, lines.count());
    }

    @Test
    void aBitmapReadBackKeepsOnlyLinesOfTheFrame() {
        DirtyLines lines = new DirtyLines(4096 + 64 * 3); // 67 lines: the second word has 3 valid bits
        lines.setWord(1, -1L);
        assertEquals(3, lines.count());
        assertTrue(lines.isDirty(66));
        assertEquals(64, lines.nextDirty(0));
        assertEquals(67, lines.nextClean(64));
        lines.setWord(0, 1L << 5);
        assertEquals(5, lines.nextDirty(0));
        assertEquals(2, lines.wordCount());
        assertEquals(1L << 5, lines.word(0));
    }

    @Test
    void badInputIsRefusedByName() {
        IllegalArgumentException size = assertThrows(IllegalArgumentException.class, () -> new DirtyLines(100));
        assertTrue(size.getMessage().contains("100 bytes"), size.getMessage());
        DirtyLines lines = new DirtyLines(4096);
        IndexOutOfBoundsException line = assertThrows(IndexOutOfBoundsException.class, () -> lines.mark(64));
        assertTrue(line.getMessage().contains("line 64"), line.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> lines.isDirty(-1));
        try (Arena arena = Arena.ofConfined()) {
            IllegalArgumentException frames = assertThrows(IllegalArgumentException.class,
                    () -> lines.markDifferences(arena.allocate(4096), arena.allocate(8192), 0));
            assertTrue(frames.getMessage().contains("8192"), frames.getMessage());
        }
        assertFalse(lines.isDirty(0));
    }
}
