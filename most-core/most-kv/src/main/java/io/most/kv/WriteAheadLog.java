package io.most.kv;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.CRC32C;

/**
 * The write-ahead log: one file, a header naming the database, then records. An LSN is a record's byte
 * offset in the log's logical address space (it grows forever; truncating the prefix at a checkpoint
 * rewrites the file with a higher base LSN).
 *
 * <pre>
 * header (64 bytes): i64 magic "MOSTWAL1", i32 version, i64 db id msb, i64 db id lsb, i64 base LSN,
 *                    ..., i32 CRC32C of bytes [0, 60) at offset 60
 * record (8-byte aligned): i32 length, i32 CRC32C of [8, length), i64 LSN, u8 type, i64 tx id,
 *                          i64 previous LSN of the tx, body
 * </pre>
 *
 * <p><b>Group commit.</b> Appends copy into an in-memory buffer under a lock. {@link #force(long)} has
 * one thread write and fsync the whole buffer while later committers wait; the next one to find its
 * record not yet durable forces everything appended meanwhile, as a batch.
 *
 * <p><b>Crash tail.</b> On open the records are checked in order; the first one that is incomplete or
 * fails its CRC ends the log and the file is truncated there, unless a valid record (its own LSN
 * inside, CRC good) follows it: that is damage in the middle, reported as {@link CorruptLogException}
 * with nothing changed.
 */
final class WriteAheadLog implements AutoCloseable {
    static final int HEADER = 64;
    static final int RECORD_HEADER = 33;
    private static final long MAGIC = 0x4D4F535457414C31L;
    private static final int VERSION = 1;
    /**
     * Buffered log bytes after which an asynchronous commit forces the log itself
     * ({@link #forceIfBuffered}). Without it only a page write-back, a checkpoint or a synchronous commit
     * wrote the buffer, which meanwhile grew by doubling: up to the checkpoint interval (64 MiB by
     * default) held in the heap and twice the log's bytes allocated (~5 KiB per YCSB field update of a
     * 1000-byte record once its images are counted), and that much committed work lost in a crash.
     */
    static final int ASYNC_FORCE_BYTES = 1 << 20;

    private final Path path;
    private final UUID dbId;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition flushed = lock.newCondition();
    private FileChannel channel;
    private long baseLsn;
    // guarded by lock
    private ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
    private ByteBuffer spare = ByteBuffer.allocate(1 << 16);
    private long bufferStart;
    private long end;
    private long durable;
    private boolean flushing;
    private long forces;
    /** The write failure that ended this log's use, if any. */
    private volatile KvException failure;

    /** What {@link #open} found: the valid records in order, and how many torn bytes it cut off. */
    record Scan(WriteAheadLog log, List<LogRecord> records, long truncatedBytes) {
    }

    private WriteAheadLog(Path path, UUID dbId, FileChannel channel, long baseLsn, long end) {
        this.path = path;
        this.dbId = dbId;
        this.channel = channel;
        this.baseLsn = baseLsn;
        this.bufferStart = end;
        this.end = end;
        this.durable = end;
    }

    /** Creates a new, empty log for {@code dbId} atomically (a temporary file renamed into place). */
    static WriteAheadLog create(Path path, UUID dbId) {
        long base = HEADER;
        writeFileAtomically(path, dbId, base, ByteBuffer.allocate(0));
        try {
            return new WriteAheadLog(path, dbId, FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE),
                    base, base);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open log " + path, e);
        }
    }

    /** The database id in the header of the log at {@code path}, which must exist. */
    static UUID readDbId(Path path) {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            ByteBuffer header = readHeader(path, ch);
            return new UUID(header.getLong(16), header.getLong(24));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read log " + path, e);
        }
    }

    /**
     * Opens the log of database {@code dbId}, reads every record and cuts a torn tail.
     *
     * @throws LogMismatchException if the log belongs to another database (nothing changed)
     * @throws CorruptLogException  if a damaged record is followed by valid ones (nothing changed)
     */
    static Scan open(Path path, UUID dbId) {
        FileChannel ch = null;
        try {
            ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
            ByteBuffer header = readHeader(path, ch);
            UUID found = new UUID(header.getLong(16), header.getLong(24));
            if (!found.equals(dbId)) {
                throw new LogMismatchException("log " + path + " belongs to database " + found
                        + " but the page store holds database " + dbId + "; nothing was changed");
            }
            long base = header.getLong(32);
            long size = ch.size() - HEADER;
            ByteBuffer data = ByteBuffer.allocate(Math.toIntExact(size));
            while (data.hasRemaining() && ch.read(data, HEADER + data.position()) >= 0) {
                // read fully
            }
            data.flip();
            List<LogRecord> records = new ArrayList<>();
            int pos = 0;
            while (pos < data.limit()) {
                LogRecord r = decode(data, pos, base + pos);
                if (r == null) {
                    break;
                }
                records.add(r);
                pos += align(data.getInt(pos));
            }
            long truncated = data.limit() - pos;
            if (truncated > 0) {
                long valid = findValidRecordAfter(data, pos, base);
                if (valid >= 0) {
                    throw new CorruptLogException(base + pos, "log " + path + " is corrupt at LSN " + (base + pos)
                            + " but holds a valid record at LSN " + valid
                            + ": damage in the middle of the log, not a torn tail; nothing was truncated");
                }
                ch.truncate(HEADER + pos);
                ch.force(true);
            }
            WriteAheadLog log = new WriteAheadLog(path, dbId, ch, base, base + pos);
            ch = null;
            return new Scan(log, records, truncated);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open log " + path, e);
        } finally {
            if (ch != null) {
                try {
                    ch.close();
                } catch (IOException ignored) {
                    // already failing
                }
            }
        }
    }

    private static ByteBuffer readHeader(Path path, FileChannel ch) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(HEADER);
        while (header.hasRemaining() && ch.read(header, header.position()) >= 0) {
            // read fully
        }
        if (header.hasRemaining() || header.getLong(0) != MAGIC) {
            throw new LogMismatchException("file " + path + " is not a MOST key-value log (no log header)");
        }
        if (header.getInt(60) != crc(header.array(), 0, 60)) {
            throw new CorruptLogException(0, "the header of log " + path + " fails its checksum");
        }
        if (header.getInt(8) != VERSION) {
            throw new LogMismatchException("log " + path + " has format version " + header.getInt(8)
                    + ", this build reads " + VERSION);
        }
        return header;
    }

    /** The record at {@code pos} if it is complete, has its own LSN inside and a good CRC; else null. */
    private static LogRecord decode(ByteBuffer data, int pos, long lsn) {
        if (data.limit() - pos < RECORD_HEADER) {
            return null;
        }
        int length = data.getInt(pos);
        if (length < RECORD_HEADER || length > data.limit() - pos || data.getLong(pos + 8) != lsn) {
            return null;
        }
        if (data.getInt(pos + 4) != crc(data.array(), pos + 8, length - 8)) {
            return null;
        }
        byte[] body = new byte[length - RECORD_HEADER];
        data.get(pos + RECORD_HEADER, body);
        return new LogRecord(lsn, data.get(pos + 16), data.getLong(pos + 17), data.getLong(pos + 25), body);
    }

    private static long findValidRecordAfter(ByteBuffer data, int bad, long base) {
        for (int q = bad + 8; q + RECORD_HEADER <= data.limit(); q += 8) {
            if (data.getLong(q + 8) == base + q && decode(data, q, base + q) != null) {
                return base + q;
            }
        }
        return -1;
    }

    private static int align(int length) {
        return (length + 7) & ~7;
    }

    private static int crc(byte[] bytes, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }

    /**
     * Appends a record of {@code tx} (null for records of no transaction), chaining it to the
     * transaction's previous record and updating the transaction's LSNs, all under the log lock so a
     * checkpoint sees a consistent picture. Returns its LSN; it is durable after {@link #force}.
     */
    long append(byte type, TxnState tx, byte[] body) {
        return append(type, tx, body.length, body, null);
    }

    /**
     * {@link #append} of a key change's body ({@link LogRecord.KeyChange}, or {@link LogRecord.RangeChange}
     * read from the latched leaf), encoded straight into the log buffer (no body array per record: this is
     * every update's record).
     */
    long appendChange(byte type, TxnState tx, LogRecord.Body change) {
        return append(type, tx, change.size(), null, change);
    }

    /** Appends a record whose body is {@code body}, or else {@code change} encoded in place. */
    private long append(byte type, TxnState tx, int bodyLength, byte[] body, LogRecord.Body change) {
        int length = RECORD_HEADER + bodyLength;
        lock.lock();
        try {
            checkUsable();
            long lsn = end;
            long prev = tx == null ? 0 : tx.lastLsn;
            ensureRoom(align(length));
            int pos = buffer.position();
            buffer.putInt(length).putInt(0).putLong(lsn).put(type).putLong(tx == null ? 0 : tx.id).putLong(prev);
            if (body != null) {
                buffer.put(body);
            } else {
                change.put(buffer);
            }
            buffer.putInt(pos + 4, crc(buffer.array(), pos + 8, length - 8));
            buffer.position(pos + align(length));
            end = lsn + align(length);
            if (tx != null) {
                tx.lastLsn = lsn;
                if (tx.firstLsn == 0) {
                    tx.firstLsn = lsn;
                }
            }
            return lsn;
        } finally {
            lock.unlock();
        }
    }

    private void ensureRoom(int bytes) {
        if (buffer.remaining() < bytes) {
            ByteBuffer bigger = ByteBuffer.allocate(Math.max(buffer.capacity() * 2, buffer.position() + bytes));
            buffer.flip();
            bigger.put(buffer);
            buffer = bigger;
        }
    }

    /** Makes every record with LSN up to {@code lsn} durable (group commit; see the class comment). */
    void force(long lsn) {
        lock.lock();
        try {
            while (durable <= lsn && durable < end) {
                checkUsable();
                if (flushing) {
                    flushed.awaitUninterruptibly();
                    continue;
                }
                flushBuffer(true);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Forces the log if at least {@link #ASYNC_FORCE_BYTES} are buffered and no force is under way: what
     * an asynchronous commit does (never under a latch), so the buffer stays small and async-committed
     * work becomes durable within that many bytes of log.
     */
    void forceIfBuffered() {
        lock.lock();
        try {
            if (!flushing && end - bufferStart >= ASYNC_FORCE_BYTES) {
                checkUsable();
                flushBuffer(true);
            }
        } finally {
            lock.unlock();
        }
    }

    private void checkUsable() {
        if (failure != null) {
            throw new KvException(failure.getMessage(), failure);
        }
    }

    /** Writes and forces the buffer, releasing the lock during I/O so appends go on. Needs the lock. */
    private void flushBuffer(boolean unlockDuringIo) {
        flushing = true;
        ByteBuffer out = buffer;
        long start = bufferStart;
        long upTo = end;
        buffer = spare;
        buffer.clear();
        bufferStart = upTo;
        if (unlockDuringIo) {
            lock.unlock();
        }
        try {
            out.flip();
            long position = HEADER + (start - baseLsn);
            while (out.hasRemaining()) {
                position += channel.write(out, position);
            }
            channel.force(false);
        } catch (IOException e) {
            // the records of 'out' are gone: refuse every later append and force, so no commit after
            // this one can be reported durable while its log has a gap
            failure = new KvException("cannot write log " + path + "; the database must be reopened", e);
            throw failure;
        } finally {
            if (unlockDuringIo) {
                lock.lock();
            }
            flushing = false;
            out.clear();
            spare = out;
            flushed.signalAll();
        }
        durable = upTo;
        forces++;
    }

    /** The LSN the next record will get. */
    long endLsn() {
        lock.lock();
        try {
            return end;
        } finally {
            lock.unlock();
        }
    }

    /** How many times the log was forced (fewer than commits when group commit batches). */
    long forceCount() {
        lock.lock();
        try {
            return forces;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Appends and forces a checkpoint record, then drops the log before {@code redoStart} or the first
     * record of any active transaction, whichever is older, by rewriting the file (temporary file,
     * fsync, atomic rename): after a crash either the old or the new file is in place, both valid.
     */
    void checkpoint(long redoStart, long nextTxId, Collection<TxnState> active) {
        lock.lock();
        try {
            long keepFrom = redoStart;
            for (TxnState tx : active) {
                if (tx.firstLsn != 0) {
                    keepFrom = Math.min(keepFrom, tx.firstLsn);
                }
            }
            append(LogRecord.CHECKPOINT, null, LogRecord.encodeCheckpoint(new LogRecord.Checkpoint(redoStart, nextTxId)));
            while (flushing) {
                flushed.awaitUninterruptibly();
            }
            flushBuffer(false);
            if (keepFrom > baseLsn) {
                recycle(keepFrom);
            }
        } finally {
            lock.unlock();
        }
    }

    private void recycle(long keepFrom) {
        try {
            ByteBuffer tail = ByteBuffer.allocate(Math.toIntExact(end - keepFrom));
            long position = HEADER + (keepFrom - baseLsn);
            while (tail.hasRemaining() && channel.read(tail, position + tail.position()) >= 0) {
                // read fully
            }
            tail.flip();
            channel.close();
            writeFileAtomically(path, dbId, keepFrom, tail);
            channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
            baseLsn = keepFrom;
        } catch (IOException e) {
            throw new KvException("cannot truncate log " + path + "; the database must be reopened", e);
        }
    }

    private static void writeFileAtomically(Path path, UUID dbId, long base, ByteBuffer records) {
        Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
        ByteBuffer header = ByteBuffer.allocate(HEADER);
        header.putLong(0, MAGIC).putInt(8, VERSION).putLong(16, dbId.getMostSignificantBits())
                .putLong(24, dbId.getLeastSignificantBits()).putLong(32, base);
        header.putInt(60, crc(header.array(), 0, 60));
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            long position = 0;
            while (header.hasRemaining()) {
                position += ch.write(header, position);
            }
            while (records.hasRemaining()) {
                position += ch.write(records, position);
            }
            ch.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write log " + tmp, e);
        }
        try {
            Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            Path dir = path.toAbsolutePath().getParent();
            try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
                d.force(true);
            }
        } catch (NoSuchFileException e) {
            throw new UncheckedIOException("log directory of " + path + " is missing", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot rename " + tmp + " to " + path, e);
        }
    }

    /** The log's file. */
    Path path() {
        return path;
    }

    /** Forces everything appended and closes the file. */
    @Override
    public void close() {
        lock.lock();
        try {
            while (flushing) {
                flushed.awaitUninterruptibly();
            }
            if (durable < end) {
                flushBuffer(false);
            }
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close log " + path, e);
        } finally {
            lock.unlock();
        }
    }
}
