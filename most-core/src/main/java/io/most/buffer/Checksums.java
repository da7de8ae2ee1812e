package io.most.buffer;

import java.lang.foreign.MemorySegment;
import java.util.zip.CRC32C;

/** CRC32C of memory segments, as stored in page headers and superblocks. */
final class Checksums {
    private Checksums() {
    }

    static int crc32c(MemorySegment segment) {
        CRC32C crc = new CRC32C();
        crc.update(segment.asByteBuffer());
        return (int) crc.getValue();
    }
}
