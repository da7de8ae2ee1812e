package io.most.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.BlockDevice;
import io.most.device.DeviceIOException;
import io.most.device.FaultyDevice;
import io.most.device.ForwardingDevice;
import io.most.device.IoCompletion;
import io.most.device.IoOp;
import io.most.device.IoQueue;
import io.most.device.IoRequest;
import io.most.device.MemoryDevice;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/**
 * The driver of {@code device-rand-* --queue-depth N}: it keeps N I/Os in flight as fio does, refilling
 * a slot as each completion arrives (never letting the queue drain between batches), and an
 * operation's latency counts from its I/O's submission.
 */
class RandomBlockQueueDepthTest {
    private static final int BLOCK = 4096;
    private static final long SIZE = 256L * BLOCK;

    /** A queue that records how many requests were outstanding at each wait. */
    private static final class RecordingQueue implements IoQueue {
        final IoQueue inner;
        final List<Integer> outstandingAtAwait = new ArrayList<>();
        boolean closed;

        RecordingQueue(IoQueue inner) {
            this.inner = inner;
        }

        @Override
        public int depth() {
            return inner.depth();
        }

        @Override
        public int outstanding() {
            return inner.outstanding();
        }

        @Override
        public void submit(IoRequest request, long tag) {
            inner.submit(request, tag);
        }

        @Override
        public void flush() {
            inner.flush();
        }

        @Override
        public IoCompletion awaitCompletion() {
            outstandingAtAwait.add(inner.outstanding());
            return inner.awaitCompletion();
        }

        @Override
        public void close() {
            closed = true;
            inner.close();
        }
    }

    /** A device whose queues are recorded. */
    private static final class Recorded extends ForwardingDevice {
        final List<RecordingQueue> queues = new ArrayList<>();

        Recorded(BlockDevice inner) {
            super(inner);
        }

        @Override
        public IoQueue openQueue(int depth) {
            RecordingQueue q = new RecordingQueue(inner().openQueue(depth));
            queues.add(q);
            return q;
        }
    }

    private static Workload.Client client(BlockDevice device, double writeFraction, int depth) {
        RandomBlockWorkload workload = new RandomBlockWorkload("device-rand-test", writeFraction);
        Workload.Session session = workload.start(device,
                new Workload.Setup(SIZE, BLOCK, 42, Optional.empty(), OptionalDouble.empty(), depth));
        return session.newClient(0);
    }

    @Test
    void everyWaitHasTheFullDepthInFlightAndEachOperationIsOneIo() {
        try (Recorded device = new Recorded(new MemoryDevice("m", BLOCK, SIZE))) {
            Workload.Client client = client(device, 0.5, 8);
            long before = System.nanoTime();
            for (int i = 0; i < 100; i++) {
                client.next();
                long began = client.startOfCompleted();
                assertTrue(began >= before && began <= System.nanoTime(),
                        "an operation's latency counts from its I/O's submission");
            }
            assertEquals(1, device.queues.size(), "one queue per client");
            RecordingQueue queue = device.queues.getFirst();
            assertEquals(100, queue.outstandingAtAwait.size());
            assertTrue(queue.outstandingAtAwait.stream().allMatch(n -> n == 8),
                    "a slot is refilled before the next wait: " + queue.outstandingAtAwait);
            long ios = device.stats().ops(IoOp.READ) + device.stats().ops(IoOp.WRITE);
            assertTrue(ios >= 100 && ios <= 100 + 8, "each operation is one I/O (plus the ones in flight): " + ios);
            assertTrue(device.stats().ops(IoOp.READ) > 0 && device.stats().ops(IoOp.WRITE) > 0);
            client.close();
            assertTrue(queue.closed, "closing the client closes its queue");
            assertEquals(0, device.stats().inFlight());
        }
    }

    @Test
    void depthOneIssuesSynchronousCallsWithoutAQueue() {
        try (Recorded device = new Recorded(new MemoryDevice("m", BLOCK, SIZE))) {
            Workload.Client client = client(device, 0, 1);
            for (int i = 0; i < 10; i++) {
                client.next();
                assertEquals(Workload.Client.STARTED_WITH_CALL, client.startOfCompleted());
            }
            client.close();
            assertTrue(device.queues.isEmpty());
            assertEquals(10, device.stats().ops(IoOp.READ));
        }
    }

    @Test
    void aFailedIoIsAnOperationErrorAndTheSlotIsRefilled() {
        FaultyDevice faulty = new FaultyDevice(new MemoryDevice("m", BLOCK, SIZE));
        try (Recorded device = new Recorded(faulty)) {
            Workload.Client client = client(device, 0, 4);
            client.next();
            faulty.failNext(IoOp.READ, 1);
            int errors = 0;
            for (int i = 0; i < 20; i++) {
                try {
                    client.next();
                } catch (DeviceIOException e) {
                    assertTrue(e.getMessage().contains("injected"), e.getMessage());
                    errors++;
                }
                assertFalse(client.startOfCompleted() == Workload.Client.STARTED_WITH_CALL);
            }
            assertEquals(1, errors, "the one failed read fails one operation");
            RecordingQueue queue = device.queues.getFirst();
            assertTrue(queue.outstandingAtAwait.stream().allMatch(n -> n == 4), "" + queue.outstandingAtAwait);
            client.close();
            assertThrows(IllegalStateException.class, () -> queue.inner.submit(IoRequest.read(0,
                    MemorySegment.ofArray(new byte[BLOCK]))), "the queue is closed");
        }
    }
}
