package io.most.sharing;

import io.most.device.BlockDevice;
import io.most.errors.ConfigurationException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Which bytes of a shared block device belong to which tenant's space, kept on the device itself so
 * that a tenant reopened in another process (or after a crash) finds its space where it left it,
 * whatever order the tenants join in. A partition table: two copies at the start of the device, each
 * {@link #copyBytes} long with a sequence number and a CRC32C; an update writes the older copy and
 * forces it, so a torn write leaves the other copy, which is then the table. Spaces are never moved or
 * freed: a tenant's space keeps its offset and size for the life of the device.
 *
 * <p>Spaces start on {@link #ALIGNMENT} boundaries, so a space on a tiered volume starts on a segment
 * (of up to 1 MiB) and the discards of the engine inside it unmap whole segments. Not thread-safe:
 * {@link SharedDevices} serializes its use.
 */
final class SpaceTable {
    static final long MAGIC = 0x4D4F53545350414CL; // "MOSTSPAL"
    static final int VERSION = 1;
    static final long ALIGNMENT = 1 << 20;
    private static final int HEADER = 8 + 4 + 8 + 4; // magic, version, sequence, count
    private static final int NAME_LIMIT = 255;

    record Extent(String tenant, String space, long offset, long length) {
    }

    private final BlockDevice device;
    private final int copyBytes;
    private final List<Extent> extents;
    private long sequence;

    private SpaceTable(BlockDevice device, int copyBytes, List<Extent> extents, long sequence) {
        this.device = device;
        this.copyBytes = copyBytes;
        this.extents = extents;
        this.sequence = sequence;
    }

    /**
     * Reads the table of {@code device}: the valid copy with the higher sequence number, or an empty
     * table on a blank (all-zero) device.
     *
     * @throws ConfigurationException if the device holds something else than a space table, or both
     *                                copies are damaged
     */
    static SpaceTable load(BlockDevice device) {
        int copyBytes = (int) Math.max(8192, device.blockSize());
        if (device.capacity() < 2L * copyBytes + ALIGNMENT) {
            throw new ConfigurationException("shared device '" + device.name() + "' holds " + device.capacity()
                    + " bytes; tenants' spaces need at least " + (2L * copyBytes + ALIGNMENT) + " (the space table"
                    + " and one MiB)");
        }
        SpaceTable best = null;
        boolean blank = true;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = device.allocate(arena, copyBytes);
            for (int copy = 0; copy < 2; copy++) {
                device.read((long) copy * copyBytes, buffer);
                ByteBuffer bytes = buffer.asByteBuffer();
                if (!isZero(buffer)) {
                    blank = false;
                }
                SpaceTable t = parse(device, copyBytes, bytes);
                if (t != null && (best == null || t.sequence > best.sequence)) {
                    best = t;
                }
            }
        }
        if (best != null) {
            return best;
        }
        if (!blank) {
            throw new ConfigurationException("shared device '" + device.name() + "' holds no valid MOST space table"
                    + " in its first " + 2L * copyBytes + " bytes (another format, or both copies damaged): give the"
                    + " tenants a blank device, or the device they were created on");
        }
        return new SpaceTable(device, copyBytes, new ArrayList<>(), 0);
    }

    /** The extent of {@code tenant}'s space {@code space}, or null if it has none. */
    Extent find(String tenant, String space) {
        for (Extent e : extents) {
            if (e.tenant().equals(tenant) && e.space().equals(space)) {
                return e;
            }
        }
        return null;
    }

    /** Every extent, in the order they were added. */
    List<Extent> extents() {
        return List.copyOf(extents);
    }

    /**
     * Adds {@code tenant}'s space {@code space} of {@code length} bytes after every other space and
     * makes the table durable before returning it.
     *
     * @throws ConfigurationException if the device has no room left for it, or the table is full
     */
    Extent add(String tenant, String space, long length) {
        checkName("tenant", tenant);
        checkName("space", space);
        long end = 2L * copyBytes;
        for (Extent e : extents) {
            end = Math.max(end, e.offset() + e.length());
        }
        long offset = (end + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
        if (length > device.capacity() - offset) {
            throw new ConfigurationException("tenant '" + tenant + "' asks for a space '" + space + "' of " + length
                    + " bytes on shared device '" + device.name() + "', which has " + Math.max(0, device.capacity() - offset)
                    + " bytes left of " + device.capacity() + " (spaces: " + extents.size() + "): give smaller spaces"
                    + " or a larger device");
        }
        Extent extent = new Extent(tenant, space, offset, length);
        extents.add(extent);
        try {
            write();
        } catch (RuntimeException e) {
            extents.removeLast();
            throw e;
        }
        return extent;
    }

    private void write() {
        ByteBuffer bytes = ByteBuffer.allocate(copyBytes);
        bytes.putLong(MAGIC).putInt(VERSION).putLong(sequence + 1).putInt(extents.size());
        for (Extent e : extents) {
            byte[] t = e.tenant().getBytes(StandardCharsets.UTF_8);
            byte[] s = e.space().getBytes(StandardCharsets.UTF_8);
            if (bytes.remaining() < 2 + t.length + 2 + s.length + 16 + 4) {
                throw new ConfigurationException("the space table of shared device '" + device.name() + "' is full ("
                        + extents.size() + " spaces in " + copyBytes + " bytes): use shorter tenant and space names"
                        + " or fewer spaces");
            }
            bytes.putShort((short) t.length).put(t).putShort((short) s.length).put(s)
                    .putLong(e.offset()).putLong(e.length());
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes.array(), 0, copyBytes - 4);
        bytes.putInt(copyBytes - 4, (int) crc.getValue());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = device.allocate(arena, copyBytes);
            buffer.copyFrom(MemorySegment.ofArray(bytes.array()));
            // the older copy: the newer one stays intact until this one is durable
            device.write(((sequence + 1) % 2) * copyBytes, buffer);
            device.force();
        }
        sequence++;
    }

    /** A copy's table, or null if the copy is not a valid table. */
    private static SpaceTable parse(BlockDevice device, int copyBytes, ByteBuffer bytes) {
        if (bytes.getLong(0) != MAGIC) {
            return null;
        }
        CRC32C crc = new CRC32C();
        ByteBuffer body = bytes.duplicate().position(0).limit(copyBytes - 4);
        crc.update(body);
        if ((int) crc.getValue() != bytes.getInt(copyBytes - 4)) {
            return null;
        }
        if (bytes.getInt(8) != VERSION) {
            throw new ConfigurationException("shared device '" + device.name() + "' has a space table of version "
                    + bytes.getInt(8) + "; this MOST reads version " + VERSION);
        }
        long sequence = bytes.getLong(12);
        int count = bytes.getInt(20);
        bytes.position(HEADER);
        List<Extent> extents = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String tenant = string(bytes);
            String space = string(bytes);
            extents.add(new Extent(tenant, space, bytes.getLong(), bytes.getLong()));
        }
        return new SpaceTable(device, copyBytes, extents, sequence);
    }

    private static String string(ByteBuffer bytes) {
        byte[] b = new byte[bytes.getShort() & 0xFFFF];
        bytes.get(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    private static boolean isZero(MemorySegment segment) {
        for (long i = 0; i < segment.byteSize(); i += 8) {
            if (segment.get(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, i) != 0) {
                return false;
            }
        }
        return true;
    }

    private static void checkName(String what, String name) {
        if (name.getBytes(StandardCharsets.UTF_8).length > NAME_LIMIT) {
            throw new ConfigurationException(what + " name '" + name + "' is longer than " + NAME_LIMIT
                    + " bytes of UTF-8");
        }
    }
}
