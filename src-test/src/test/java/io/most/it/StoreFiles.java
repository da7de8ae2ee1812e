package io.most.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds and alters stored page images in a store's files from outside the store, the way media
 * corruption or a crash would leave them. Every page the store writes starts with its self-describing
 * header (io.most.buffer.PageHeader, package-private, so restated here):
 *
 * <pre>
 *  0  int   magic and format version 0x4D530002 ('M','S', 2); 0 once a PM frame is invalidated
 *  4  int   header CRC32C of bytes [8, 32)
 *  8  int   page id
 * 12  int   payload CRC32C of bytes [32, pageSize)
 * 16  long  LSN
 * 24  long  write sequence
 * </pre>
 *
 * All little-endian (the store writes in native order on x86-64). Images are page-aligned: on the
 * block device after two superblocks, the bitmaps and the double-write slots (whose copies of pages
 * in flight are not the pages' images and are skipped here), in the PM file after one superblock page.
 */
final class StoreFiles {
    static final int PAGE_MAGIC = 0x4D53_0002;
    /** The block store's superblock magic ("MOSTSTOR") and its double-write slots before the data pages. */
    private static final long BLOCK_STORE_MAGIC = 0x4D4F_5354_5354_4F52L;
    private static final int DOUBLE_WRITE_SLOTS = 16;

    /** A page image found in a file: where it starts and its header fields. */
    record Image(long offset, int magic, long pageId, long lsn, long seq) {
        boolean isValid() {
            return magic == PAGE_MAGIC;
        }
    }

    private StoreFiles() {
    }

    /**
     * Every page-aligned image in {@code file} whose page-id field is {@code pageId}, with the magic of
     * a valid page, or also (with {@code withInvalidated}) a cleared magic.
     */
    static List<Image> imagesOf(Path file, int pageSize, long pageId, boolean withInvalidated) {
        List<Image> images = new ArrayList<>();
        ByteBuffer header = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long slotsFrom = doubleWriteArea(channel, pageSize);
            for (long offset = 0; offset + pageSize <= channel.size(); offset += pageSize) {
                if (offset >= slotsFrom && offset < slotsFrom + (long) DOUBLE_WRITE_SLOTS * pageSize) {
                    continue;
                }
                header.clear();
                channel.read(header, offset);
                int magic = header.getInt(0);
                if ((magic == PAGE_MAGIC || (withInvalidated && magic == 0)) && Integer.toUnsignedLong(header.getInt(8)) == pageId
                        && (magic != 0 || header.getInt(4) != 0)) {
                    images.add(new Image(offset, magic, pageId, header.getLong(16), header.getLong(24)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return images;
    }

    /** How many page-aligned images with a valid magic {@code file} holds, of any page. */
    static int countValidImages(Path file, int pageSize) {
        int n = 0;
        ByteBuffer header = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long slotsFrom = doubleWriteArea(channel, pageSize);
            for (long offset = 0; offset + pageSize <= channel.size(); offset += pageSize) {
                if (offset >= slotsFrom && offset < slotsFrom + (long) DOUBLE_WRITE_SLOTS * pageSize) {
                    continue;
                }
                header.clear();
                channel.read(header, offset);
                if (header.getInt(0) == PAGE_MAGIC) {
                    n++;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return n;
    }

    /**
     * Byte offset of the double-write slots if {@code channel} is a block store (its first superblock
     * names it; the slots follow two superblocks and two bitmap copies), else past the end.
     */
    private static long doubleWriteArea(FileChannel channel, int pageSize) throws IOException {
        ByteBuffer magic = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        channel.read(magic, 0);
        if (magic.getLong(0) != BLOCK_STORE_MAGIC) {
            return Long.MAX_VALUE / 2;
        }
        long pages = channel.size() / pageSize;
        long bitmapPages = Math.max(1, (pages + 8L * pageSize - 1) / (8L * pageSize));
        return (2 + 2 * bitmapPages) * pageSize;
    }

    /** The one valid image of {@code pageId} in {@code file}; fails if there is none or several. */
    static Image onlyValidImage(Path file, int pageSize, long pageId) {
        List<Image> images = imagesOf(file, pageSize, pageId, false);
        if (images.size() != 1) {
            throw new AssertionError("expected one valid image of page " + pageId + " in " + file + ", found " + images);
        }
        return images.getFirst();
    }

    /** Overwrites {@code bytes.length} bytes at {@code offset} (and syncs, though a reopen needs no sync). */
    static void write(Path file, long offset, byte[] bytes) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer, offset + buffer.position());
            }
            channel.force(false);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] read(Path file, long offset, int length) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocate(length);
            while (buffer.hasRemaining()) {
                if (channel.read(buffer, offset + buffer.position()) < 0) {
                    throw new AssertionError("file " + file + " ends before " + (offset + length));
                }
            }
            return buffer.array();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes {@code value} as the little-endian int at {@code offset}. */
    static void writeInt(Path file, long offset, int value) {
        write(file, offset, ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, value).array());
    }

    /** Flips every bit of {@code length} bytes at {@code offset}: a corruption no checksum can miss by chance. */
    static void flipBytes(Path file, long offset, int length) {
        byte[] bytes = read(file, offset, length);
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) ~bytes[i];
        }
        write(file, offset, bytes);
    }
}
