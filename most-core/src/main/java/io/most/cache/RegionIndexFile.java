package io.most.cache;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.zip.CRC32C;

/**
 * The large-item index saved at a clean close, so that a warm restart loads it instead of scanning
 * every region. Written to a temporary file, forced and renamed; deleted (and the deletion forced)
 * when the cache opens, before anything changes, so that an index is only ever read right after the
 * clean close that wrote it. A missing, damaged or foreign file just means a scan.
 *
 * <pre>
 * magic "MOSTIDX1" | version | cache id | oldest live generation | open region | open generation |
 * entries | per entry: key length, key, region, generation, offset, bytes, deadline, hot |
 * CRC32C of everything before it
 * </pre>
 */
final class RegionIndexFile {
    private static final long MAGIC = 0x3158444954534F4DL; // "MOSTIDX1"
    private static final int VERSION = 1;

    /** What the file says besides the entries. */
    record Header(long minLiveSeq, int openRegion, long openSeq) {
    }

    private RegionIndexFile() {
    }

    static void write(Path file, UUID cacheId, Header header, Map<ByteKey, RegionStore.Location> index) {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE);
             DataOutputStream out = new DataOutputStream(new java.io.BufferedOutputStream(
                     java.nio.channels.Channels.newOutputStream(ch), 1 << 16))) {
            CRC32C crc = new CRC32C();
            DataOutputStream body = new DataOutputStream(new java.util.zip.CheckedOutputStream(out, crc));
            body.writeLong(MAGIC);
            body.writeInt(VERSION);
            body.writeLong(cacheId.getMostSignificantBits());
            body.writeLong(cacheId.getLeastSignificantBits());
            body.writeLong(header.minLiveSeq());
            body.writeInt(header.openRegion());
            body.writeLong(header.openSeq());
            body.writeInt(index.size());
            for (Map.Entry<ByteKey, RegionStore.Location> e : index.entrySet()) {
                RegionStore.Location loc = e.getValue();
                body.writeShort(e.getKey().bytes.length);
                body.write(e.getKey().bytes);
                body.writeInt(loc.region);
                body.writeLong(loc.seq);
                body.writeInt(loc.offset);
                body.writeInt(loc.bytes);
                body.writeLong(loc.deadline);
                body.writeBoolean(loc.accessed);
            }
            body.flush();
            out.writeInt((int) crc.getValue());
            out.flush();
            ch.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save the large-item index to " + tmp, e);
        }
        try {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            forceDirectory(file.getParent());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save the large-item index to " + file, e);
        }
    }

    /**
     * Loads the index saved for {@code cacheId} with {@code minLiveSeq} into {@code sink}; returns its
     * header, or null if there is no such file or it does not check out (the caller scans instead).
     */
    static Header read(Path file, UUID cacheId, long minLiveSeq, BiConsumer<ByteKey, RegionStore.Location> sink) {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        byte[] all;
        try {
            all = Files.readAllBytes(file);
        } catch (IOException e) {
            return null;
        }
        if (all.length < 4) {
            return null;
        }
        CRC32C crc = new CRC32C();
        crc.update(all, 0, all.length - 4);
        if ((int) crc.getValue() != ByteBuffer.wrap(all, all.length - 4, 4).getInt()) {
            return null;
        }
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(all, 0, all.length - 4))) {
            if (in.readLong() != MAGIC || in.readInt() != VERSION
                    || !new UUID(in.readLong(), in.readLong()).equals(cacheId) || in.readLong() != minLiveSeq) {
                return null;
            }
            Header header = new Header(minLiveSeq, in.readInt(), in.readLong());
            int entries = in.readInt();
            for (int i = 0; i < entries; i++) {
                byte[] key = new byte[in.readUnsignedShort()];
                in.readFully(key);
                RegionStore.Location loc = new RegionStore.Location(in.readInt(), in.readLong(), in.readInt(),
                        in.readInt(), 0);
                loc.deadline = in.readLong();
                loc.accessed = in.readBoolean();
                sink.accept(new ByteKey(key, KeyHash.of(key)), loc);
            }
            return header;
        } catch (IOException e) {
            return null;
        }
    }

    /** Deletes the file, durably: a stale index must never be read after a later crash. */
    static void delete(Path file) {
        try {
            if (Files.deleteIfExists(file)) {
                forceDirectory(file.getParent());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the saved large-item index " + file
                    + "; delete it by hand before opening the cache", e);
        }
    }

    private static void forceDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }
}
