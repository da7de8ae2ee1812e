package io.most.bench.hierarchy;

import io.most.device.AbstractBlockDevice;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A block device on a file read and written with a {@link FileChannel}, so through the OS page cache
 * (no O_DIRECT): the same file access the peer engines of {@code run --engines} get, for the
 * {@code dram-cached-file} hierarchy. {@link #force()} is {@link FileChannel#force}.
 */
final class CachedFileDevice extends AbstractBlockDevice {
    private final Path file;
    private final FileChannel channel;

    private CachedFileDevice(Path file, FileChannel channel, long capacity) {
        super("cached-file", 4096, capacity);
        this.file = file;
        this.channel = channel;
    }

    /** Opens (creating) {@code file} with {@code capacity} bytes, a multiple of 4 KiB. */
    static CachedFileDevice open(Path file, long capacity) {
        try {
            FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            if (channel.size() < capacity) {
                channel.write(ByteBuffer.allocate(1), capacity - 1); // a sparse file of the full size
            }
            return new CachedFileDevice(file, channel, capacity);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    protected void doRead(long offset, MemorySegment destination) {
        ByteBuffer buffer = destination.asByteBuffer();
        try {
            while (buffer.hasRemaining()) {
                if (channel.read(buffer, offset + buffer.position()) < 0) {
                    throw new IllegalStateException("read beyond the end of " + file + " at " + offset);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + " at " + offset + ": " + e.getMessage(), e);
        }
    }

    @Override
    protected void doWrite(long offset, MemorySegment source) {
        ByteBuffer buffer = source.asByteBuffer();
        try {
            while (buffer.hasRemaining()) {
                channel.write(buffer, offset + buffer.position());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + " at " + offset + ": " + e.getMessage(), e);
        }
    }

    @Override
    protected void doForce() {
        try {
            channel.force(false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot force " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    protected void doClose() {
        try {
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close " + file + ": " + e.getMessage(), e);
        }
    }
}
