package io.most.device;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * One positional transfer of a batch given to {@link BlockDevice#transferAll} or of an
 * {@link IoQueue}: read {@code buffer.byteSize()} bytes at {@code offset} into {@code buffer}, or write
 * all of {@code buffer} there. The same alignment rules as {@link BlockDevice#read} apply.
 *
 * @param op     {@link IoOp#READ} or {@link IoOp#WRITE}
 * @param offset device offset, a multiple of the block size
 * @param buffer destination of a read or source of a write; the device may use it until
 *               {@code transferAll} returns (or the queue returns its completion), so it must not be
 *               touched meanwhile
 */
public record IoRequest(IoOp op, long offset, MemorySegment buffer) {
    /**
     * @throws IllegalArgumentException if {@code op} is {@link IoOp#FORCE}: a batch transfers data,
     *                                  and {@link BlockDevice#force()} after it makes the writes durable
     */
    public IoRequest {
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(buffer, "buffer");
        if (op == IoOp.FORCE || op == IoOp.DISCARD) {
            throw new IllegalArgumentException("an IoRequest is a READ or a WRITE, not a " + op
                    + "; call force() or discard() on the device after transferAll");
        }
    }

    /** A read of {@code destination.byteSize()} bytes at {@code offset}. */
    public static IoRequest read(long offset, MemorySegment destination) {
        return new IoRequest(IoOp.READ, offset, destination);
    }

    /** A write of all of {@code source} at {@code offset}. */
    public static IoRequest write(long offset, MemorySegment source) {
        return new IoRequest(IoOp.WRITE, offset, source);
    }

    /** Bytes this request transfers. */
    public long length() {
        return buffer.byteSize();
    }
}
