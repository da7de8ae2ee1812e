package io.most.examples.h2;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * Serializes a volume's directory: for every entry its path (relative to the volume root), kind,
 * size, modification time and extent map ({@link BlockList} runs). The bytes are stored in volume
 * blocks named by the {@link Superblock}, which carries their CRC32C.
 */
final class DirectoryCodec {
    private static final byte FILE = 0;
    private static final byte DIRECTORY = 1;

    private DirectoryCodec() {
    }

    /** Encodes {@code entries}; the caller holds whatever keeps them stable. */
    static byte[] encode(Map<String, FileNode> entries) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(entries.size());
            for (Map.Entry<String, FileNode> e : entries.entrySet()) {
                FileNode node = e.getValue();
                out.writeUTF(e.getKey());
                out.writeByte(node.directory ? DIRECTORY : FILE);
                out.writeLong(node.size);
                out.writeLong(node.lastModified);
                node.blocks.writeTo(out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array stream does not fail
        }
        return bytes.toByteArray();
    }

    /**
     * Decodes what {@link #encode} wrote.
     *
     * @throws IOException if the bytes are not a valid directory of a volume of {@code blockCount} blocks
     */
    static TreeMap<String, FileNode> decode(byte[] bytes, long blockCount, int blockBytes) throws IOException {
        TreeMap<String, FileNode> entries = new TreeMap<>();
        if (bytes.length == 0) {
            return entries; // a new volume's first superblock names no directory yet
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        int count = in.readInt();
        for (int i = 0; i < count; i++) {
            String name = in.readUTF();
            byte kind = in.readByte();
            long size = in.readLong();
            long modified = in.readLong();
            BlockList blocks = BlockList.readFrom(in, blockCount);
            if ((kind != FILE && kind != DIRECTORY) || size < 0 || size > (long) blocks.size() * blockBytes) {
                throw new IOException("entry '" + name + "' is inconsistent (kind " + kind + ", size " + size + ", "
                        + blocks.size() + " blocks)");
            }
            entries.put(name, new FileNode(kind == DIRECTORY, size, modified, blocks));
        }
        return entries;
    }
}
