package io.most.buffer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A PM file under simulated power loss, for the tests of the PM persistence protocols: a volatile
 * segment (the CPU caches and PM as the program sees it) and a media segment that receives only what
 * was persisted, plus, after a power failure, any subset of the 8-byte words stored but not yet
 * persisted (the CPU writes lines back whenever it likes).
 */
final class SimulatedPm implements AutoCloseable {
    final Arena arena = Arena.ofConfined();
    /** What the program sees. */
    final MemorySegment memory;
    /** What survives a power failure. */
    final MemorySegment media;
    private final long bytes;

    SimulatedPm(long bytes) {
        this.bytes = bytes;
        this.memory = arena.allocate(bytes, 4096);
        this.media = arena.allocate(bytes, 4096);
    }

    /** Copies persisted ranges to the media until the power fails at call {@code failAt}; records the calls. */
    final class PowerLoss implements PmRedoLog.Persister {
        final List<long[]> calls = new ArrayList<>();
        final int failAt;
        /** The memory as it was when the power failed, or null while it has not. */
        MemorySegment atFailure;

        PowerLoss(int failAt) {
            this.failAt = failAt;
        }

        @Override
        public void persist(long offset, long length) {
            if (atFailure == null && calls.size() == failAt) {
                atFailure = arena.allocate(bytes);
                atFailure.copyFrom(memory);
            }
            if (atFailure != null) {
                throw new IllegalStateException("power failed");
            }
            calls.add(new long[] {offset, length});
            MemorySegment.copy(memory, offset, media, offset, length);
        }
    }

    /** A persister that fails at call {@code failAt} ({@code Integer.MAX_VALUE}: never). */
    PowerLoss powerLoss(int failAt) {
        return new PowerLoss(failAt);
    }

    /** Each 8-byte word stored but not persisted before the failure reaches the media with probability {@code p}. */
    void writeBackSomeWords(MemorySegment atFailure, SplittableRandom random, double p) {
        for (long at = 0; at < bytes; at += 8) {
            long word = atFailure.get(ValueLayout.JAVA_LONG, at);
            if (word != media.get(ValueLayout.JAVA_LONG, at) && random.nextDouble() < p) {
                media.set(ValueLayout.JAVA_LONG, at, word);
            }
        }
    }

    @Override
    public void close() {
        arena.close();
    }
}
