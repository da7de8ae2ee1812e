package io.most.bench.workload;

import io.most.bench.Layer;
import io.most.bench.hierarchy.Hierarchy;
import io.most.device.BlockDevice;
import io.most.device.DeviceStats;
import io.most.device.IoOp;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Large sequential block reads or writes over the data set, wrapping at its end: every thread takes
 * the next block from one shared cursor, so together they stream through the device in order. For
 * {@code profile}'s bandwidth measurements; not registered as a {@code run} workload.
 */
public final class SequentialBlockWorkload implements Workload<BlockDevice> {
    private final IoOp op;

    /** @param op {@link IoOp#READ} or {@link IoOp#WRITE} */
    public SequentialBlockWorkload(IoOp op) {
        if (op != IoOp.READ && op != IoOp.WRITE) {
            throw new IllegalArgumentException("sequential reads or writes, not " + op);
        }
        this.op = op;
    }

    @Override
    public String name() {
        return op == IoOp.READ ? "seq-read" : "seq-write";
    }

    @Override
    public String description() {
        return "sequential block " + (op == IoOp.READ ? "reads" : "writes") + " from a shared cursor";
    }

    @Override
    public Layer<BlockDevice> layer() {
        return Layer.BLOCK;
    }

    @Override
    public OptionalDouble saturationRate(Hierarchy hierarchy, int blockSize) {
        return OptionalDouble.empty();
    }

    @Override
    public Session start(BlockDevice device, Setup setup) {
        if (setup.dataSize() > device.capacity() || setup.blockSize() % device.blockSize() != 0
                || setup.dataSize() < setup.blockSize()) {
            throw new IllegalArgumentException("data set of " + setup.dataSize() + " bytes in blocks of "
                    + setup.blockSize() + " does not fit device " + device.name());
        }
        long blocks = setup.dataSize() / setup.blockSize();
        AtomicLong cursor = new AtomicLong();
        return new Session() {
            @Override
            public Client newClient(int thread) {
                Arena arena = Arena.ofConfined();
                MemorySegment buffer = device.allocate(arena, setup.blockSize());
                SplittableRandom random = setup.randomFor(thread);
                for (long i = 0; i + Long.BYTES <= buffer.byteSize(); i += Long.BYTES) {
                    buffer.set(ValueLayout.JAVA_LONG_UNALIGNED, i, random.nextLong());
                }
                return new Client() {
                    @Override
                    public void next() {
                        long offset = Math.floorMod(cursor.getAndIncrement(), blocks) * setup.blockSize();
                        if (op == IoOp.READ) {
                            device.read(offset, buffer);
                        } else {
                            device.write(offset, buffer);
                        }
                    }

                    @Override
                    public void close() {
                        arena.close();
                    }
                };
            }

            @Override
            public void beginMeasurement() {
                device.stats().reset();
            }

            @Override
            public void report(Map<String, Object> fields) {
                DeviceStats stats = device.stats();
                fields.put("ops", stats.ops(op));
                fields.put("bytes", stats.bytes(op));
                fields.put("errors", stats.errors(op));
                fields.put("block_size", setup.blockSize());
            }
        };
    }
}
