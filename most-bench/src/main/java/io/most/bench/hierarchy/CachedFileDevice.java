package io.most.bench.hierarchy;

import io.most.device.AbstractBlockDevice;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A block device on a file read and written with a {@link FileChannel}, so through the OS page cache
 * (no O_DIRECT): the same file access the peer engines of {@code run --engines} get, for the
 * {@code dram-cached-file} hierarchy. {@link #force()} is {@link FileChannel#force}.
 *
 * <p>A {@link FileChannel} closes itself when a thread using it is interrupted, which would close
 * the device under every other thread: a device must outlive an interrupt (the block-device
 * contract). So each operation runs with the caller's interrupt status set aside, and an operation
 * that finds the channel closed by another thread's interrupt reopens it and goes on; the caller's
 * interrupt status is restored.
 */
final class CachedFileDevice extends AbstractBlockDevice {
    private final Path file;
    private volatile FileChannel channel;

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

    /** One channel operation; positional, so that it can be retried on a reopened channel. */
    private interface ChannelOp {
        void run(FileChannel channel) throws IOException;
    }

    private void run(String what, ChannelOp op) {
        boolean interrupted = false;
        try {
            while (true) {
                interrupted |= Thread.interrupted(); // an interrupt set now would close the channel
                FileChannel c = channel;
                try {
                    op.run(c);
                    return;
                } catch (ClosedChannelException closed) {
                    if (!isOpen()) {
                        throw new UncheckedIOException("cannot " + what + ": the device is closed", closed);
                    }
                    reopen(c, what);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot " + what + ": " + e.getMessage(), e);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Replaces {@code broken} (closed by an interrupt) with a new channel, unless another thread did. */
    private synchronized void reopen(FileChannel broken, String what) {
        if (!isOpen()) {
            throw new IllegalStateException("cannot " + what + ": device " + name() + " is closed");
        }
        if (channel == broken) {
            try {
                channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot " + what + ": reopening after an interrupt failed: "
                        + e.getMessage(), e);
            }
        }
    }

    @Override
    protected void doRead(long offset, MemorySegment destination) {
        ByteBuffer buffer = destination.asByteBuffer();
        run("read " + file + " at " + offset, c -> {
            while (buffer.hasRemaining()) {
                if (c.read(buffer, offset + buffer.position()) < 0) {
                    throw new IllegalStateException("read beyond the end of " + file + " at " + offset);
                }
            }
        });
    }

    @Override
    protected void doWrite(long offset, MemorySegment source) {
        ByteBuffer buffer = source.asByteBuffer();
        run("write " + file + " at " + offset, c -> {
            while (buffer.hasRemaining()) {
                c.write(buffer, offset + buffer.position());
            }
        });
    }

    @Override
    protected void doForce() {
        run("force " + file, c -> c.force(false));
    }

    @Override
    protected synchronized void doClose() {
        try {
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close " + file + ": " + e.getMessage(), e);
        }
    }
}
