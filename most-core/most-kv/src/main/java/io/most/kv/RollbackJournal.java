package io.most.kv;

import io.most.WalHook;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

/**
 * The rollback journal of {@link SingleWriterKvStore}: the before-image of every page changed since
 * the last checkpoint, written before the page's first change of the interval, so a crash at any
 * point rolls the page store back to that checkpoint exactly (SQLite's rollback journal, at page
 * granularity). One image per page per checkpoint interval whatever the number of key changes: the
 * single-writer store logs no key changes, its owner's log (a Kafka changelog topic) replays them.
 *
 * <p>The WAL rule holds through the store's {@link WalHook}: a changed page carries an LSN at or after
 * its before-image's record, and {@link #flushUpTo} forces the journal before the store writes that
 * page back in place. A checkpoint first makes every page durable, then {@link #reset} empties the
 * journal: that truncation is the checkpoint's commit point.
 *
 * <p>Format: a 24-byte header (magic, payload size, LSN base, CRC32C), then records {@code [type u8]
 * [page id i64][length i32][bytes][CRC32C i32]}. A record's LSN is the LSN base plus the journal offset
 * after it; the base is the previous generation's end, so LSNs grow across resets and restarts. A
 * record whose CRC does not match ends the journal: it was never forced, so no page it protects was
 * written back.
 *
 * <p>Thread safety: {@link #beforeWrite}, {@link #allocated}, {@link #reset} and {@link #lsn} are called
 * by the one writer; {@link #flushUpTo} by any thread writing pages back. All are synchronized.
 */
final class RollbackJournal implements WalHook, AutoCloseable {
    static final long MAGIC = 0x4D4F53544A524E31L; // "MOSTJRN1"
    static final byte IMAGE = 1;
    static final byte ALLOCATED = 2;
    private static final int HEADER = 24;

    private final Path path;
    private final FileChannel channel;
    private final int payloadSize;
    private final Set<Long> covered = new HashSet<>();
    private ByteBuffer buffer = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
    private long base;
    private long written;  // offset of the end of what was handed to the channel
    private long forced;   // offset up to which the channel is forced
    private long bytesWritten; // every byte handed to the channel since open, headers included
    private boolean closed;

    /** A page's before-image or allocation, as read back by {@link #read}. */
    record Entry(byte type, long pageId, byte[] image) {
    }

    /** What a journal held when it was opened: its LSN base, its end and how many entries it handed over. */
    record Contents(long base, long end, long entries) {
    }

    private RollbackJournal(Path path, FileChannel channel, int payloadSize, long base) {
        this.path = path;
        this.channel = channel;
        this.payloadSize = payloadSize;
        this.base = base;
    }

    /**
     * Reads the journal at {@code path} (absent or empty: nothing to roll back), handing each entry to
     * {@code rollBack} in journal order as it is read: one page image in memory at a time, whatever the
     * journal's size (a store that checkpoints rarely journals up to every page it has).
     *
     * @throws CorruptJournalException if the header is damaged or was written for another payload size
     */
    static Contents read(Path path, int payloadSize, Consumer<Entry> rollBack) {
        if (!java.nio.file.Files.exists(path)) {
            return new Contents(0, 0, 0);
        }
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size == 0) {
                return new Contents(0, 0, 0);
            }
            ByteBuffer header = ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN);
            if (!readFully(ch, header, 0) || header.getLong(0) != MAGIC || crc(header, 0, 20) != header.getInt(20)) {
                throw new CorruptJournalException("rollback journal " + path + " has a damaged header: the store's"
                        + " pages may be a mix of two checkpoints; delete the store directory and restore it");
            }
            if (header.getInt(8) != payloadSize) {
                throw new CorruptJournalException("rollback journal " + path + " was written for a " + header.getInt(8)
                        + "-byte page payload, the store has " + payloadSize);
            }
            long base = header.getLong(12);
            ByteBuffer record = ByteBuffer.allocate(13 + payloadSize + 4).order(ByteOrder.LITTLE_ENDIAN);
            long at = HEADER;
            long entries = 0;
            while (true) {
                record.clear().limit(13);
                if (!readFully(ch, record, at)) {
                    break;
                }
                byte type = record.get(0);
                long pageId = record.getLong(1);
                int length = record.getInt(9);
                if ((type != IMAGE && type != ALLOCATED) || length < 0 || length > payloadSize) {
                    break; // a torn or never-forced tail
                }
                record.limit(13 + length + 4);
                if (!readFully(ch, record, at + 13) || crc(record, 0, 13 + length) != record.getInt(13 + length)) {
                    break;
                }
                byte[] image = new byte[length];
                record.get(13, image);
                rollBack.accept(new Entry(type, pageId, image));
                entries++;
                at += 13 + length + 4;
            }
            return new Contents(base, at, entries);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read rollback journal " + path, e);
        }
    }

    /** Reads from {@code position} until {@code b} is full; false if the file ends first. */
    private static boolean readFully(FileChannel ch, ByteBuffer b, long position) throws IOException {
        long at = position;
        while (b.hasRemaining()) {
            int n = ch.read(b, at);
            if (n < 0) {
                return false;
            }
            at += n;
        }
        return true;
    }

    /** Starts an empty journal at {@code path} whose LSNs continue after {@code base}. */
    static RollbackJournal create(Path path, int payloadSize, long base) {
        try {
            FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            RollbackJournal j = new RollbackJournal(path, ch, payloadSize, base);
            j.writeHeader();
            return j;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create rollback journal " + path, e);
        }
    }

    private void writeHeader() throws IOException {
        ByteBuffer h = ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN);
        h.putLong(MAGIC).putInt(payloadSize).putLong(base);
        h.putInt(crc(h, 0, 20));
        h.flip();
        channel.truncate(0);
        channel.write(h, 0);
        channel.force(false);
        bytesWritten += HEADER;
        written = HEADER;
        forced = HEADER;
        buffer.clear();
        covered.clear();
    }

    /** Whether no page was journaled or allocated since the last checkpoint (so none changed). */
    synchronized boolean isEmpty() {
        return covered.isEmpty();
    }

    /** How many pages were journaled or allocated since the last checkpoint. */
    synchronized int coveredPages() {
        return covered.size();
    }

    /**
     * Bytes written to the journal file since it was opened (headers included), for write-cost meters.
     * Records still in the buffer are not counted: a checkpoint discards them unwritten.
     */
    synchronized long bytesWritten() {
        return bytesWritten;
    }

    /** The LSN of everything journaled so far: what a page changed now is stamped with. */
    synchronized long lsn() {
        return base + written + buffer.position();
    }

    /**
     * Journals {@code page}'s current contents unless it was journaled (or allocated) since the last
     * checkpoint: called with the page exclusively latched, before any change to it.
     */
    synchronized void beforeWrite(long pageId, MemorySegment page) {
        if (!covered.add(pageId)) {
            return;
        }
        int length = (int) page.byteSize();
        ensure(13 + length + 4);
        int start = buffer.position();
        buffer.put(IMAGE).putLong(pageId).putInt(length);
        MemorySegment.copy(page, ValueLayout.JAVA_BYTE, 0, buffer.array(), buffer.position(), length);
        buffer.position(buffer.position() + length);
        buffer.putInt(crc(buffer, start, 13 + length));
    }

    /** Records that {@code pageId} was allocated since the last checkpoint: rollback frees it again. */
    synchronized void allocated(long pageId) {
        if (!covered.add(pageId)) {
            return;
        }
        ensure(17);
        int start = buffer.position();
        buffer.put(ALLOCATED).putLong(pageId).putInt(0);
        buffer.putInt(crc(buffer, start, 13));
    }

    private void ensure(int bytes) {
        if (buffer.remaining() < bytes) {
            drain();
            if (buffer.capacity() < bytes) {
                buffer = ByteBuffer.allocate(Integer.highestOneBit(bytes) << 1).order(ByteOrder.LITTLE_ENDIAN);
            }
        }
    }

    private void drain() {
        buffer.flip();
        try {
            while (buffer.hasRemaining()) {
                int n = channel.write(buffer, written);
                written += n;
                bytesWritten += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write rollback journal " + path
                    + " (a full disk?): the store cannot change pages until it can", e);
        } finally {
            buffer.clear();
        }
    }

    /** The WAL rule: before a page stamped {@code lsn} is written back, its before-image is durable. */
    @Override
    public synchronized void flushUpTo(long lsn) {
        if (closed || lsn <= base + forced) {
            return;
        }
        drain();
        try {
            channel.force(false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot force rollback journal " + path, e);
        }
        forced = written;
    }

    /** Empties the journal after a checkpoint made every page durable: the checkpoint's commit point. */
    synchronized void reset() {
        base = base + written + buffer.position();
        try {
            writeHeader();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reset rollback journal " + path, e);
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close rollback journal " + path, e);
        }
    }

    private static int crc(ByteBuffer b, int from, int length) {
        CRC32C c = new CRC32C();
        c.update(b.array(), b.arrayOffset() + from, length);
        return (int) c.getValue();
    }
}
