package io.most.device;

/**
 * A queue of reads and writes on one {@link BlockDevice} through which one thread keeps up to
 * {@link #depth()} requests in flight and learns of each as it finishes: {@link #submit} a request,
 * {@link #awaitCompletion()} the next one that finished, submit another in its place. This is the
 * completion-per-request form of the device contract, beside the batch form
 * {@link BlockDevice#transferAll} (which waits for a whole batch): a caller that refills a slot as
 * soon as it frees keeps the device's queue full, where batch after batch lets it drain to empty at
 * the end of each one. Opened with {@link BlockDevice#openQueue}.
 *
 * <p><b>Where the work happens.</b> On a {@link DirectFileDevice} running on io_uring the queue has a
 * ring of its own: {@code submit} only writes a submission entry, and the next {@link #awaitCompletion}
 * or {@link #flush} hands everything submitted since to the kernel and waits, in one
 * {@code io_uring_enter}; a completion already in the ring is taken without a system call. Requests
 * then finish in any order. On every other device (and on the {@code pread} fallback) submitted
 * requests wait in the queue until {@code awaitCompletion} (or {@code flush}) runs all of them as one
 * {@link BlockDevice#transferAll} batch, and they complete in submission order: whatever parallelism
 * the device's batches have, the queue has.
 *
 * <p><b>Guarantees.</b> Every submitted request completes exactly once, successfully or with its own
 * failure in the {@link IoCompletion} (as {@link BatchIOException} names each failed request of a
 * batch; a failure never affects another request). A request submitted after an earlier one's
 * completion was returned sees its effect (a read of a block whose write has completed returns the
 * written bytes); requests in flight together have no order among themselves. A request's buffer
 * belongs to the device from {@code submit} until its completion is returned. Writes are durable
 * after a later {@link BlockDevice#force()}, as for {@link BlockDevice#write}. Each request is counted
 * in the device's {@link BlockDevice#stats() statistics} (its latency there: from submit to completion on
 * io_uring, the batch's elsewhere).
 *
 * <p><b>Threads.</b> A queue is meant for one thread. Its methods may be called from several, but they
 * are serialized: a second caller waits while the first is blocked in {@code awaitCompletion}.
 * Waiting is not interruptible: as for every device operation, an interrupt neither fails nor
 * abandons I/O; {@code awaitCompletion} returns when a request has finished, the interrupt status
 * preserved.
 *
 * <p><b>Closing.</b> {@link #close()} waits for every request in flight to finish (a submitted write is
 * carried out, not dropped) and discards their completions. Closing the device closes its queues the
 * same way, except that completions already finished stay available to {@code awaitCompletion}, and a
 * request the device never started completes with an {@link IllegalStateException}: nothing submitted
 * is lost without a completion.
 */
public interface IoQueue extends AutoCloseable {
    /** The largest depth a queue may have: the largest io_uring ring the kernel sets up. */
    int MAX_DEPTH = 32768;

    /** Requests the queue holds at most: submitted and not yet returned by {@link #awaitCompletion}. */
    int depth();

    /** Requests submitted and not yet returned by {@link #awaitCompletion} (in flight or finished). */
    int outstanding();

    /**
     * Submits {@code request}, with {@code tag} to identify it in its {@link IoCompletion}. The request
     * may start at once or wait until the next {@link #awaitCompletion} or {@link #flush}.
     *
     * @throws IllegalArgumentException if the request is misaligned or beyond the device's capacity
     *                                  (nothing is submitted)
     * @throws IllegalStateException    if {@link #depth()} requests are already outstanding (await one
     *                                  first), or the queue or its device is closed
     */
    void submit(IoRequest request, long tag);

    /** {@link #submit(IoRequest, long)} with tag 0, for callers that tell requests apart by identity. */
    default void submit(IoRequest request) {
        submit(request, 0);
    }

    /**
     * Starts every request submitted so far without waiting for any to finish: one
     * {@code io_uring_enter} on io_uring; on a device without a queue this runs them (and so waits).
     * Not needed before {@link #awaitCompletion}, which does it too.
     *
     * @throws IllegalStateException if the queue is closed
     */
    void flush();

    /**
     * Waits until a submitted request has finished and returns its completion; each is returned once.
     * Starts requests submitted since the last call first.
     *
     * @throws IllegalStateException if no request is outstanding (it would wait forever: submit first),
     *                               or the queue is closed
     */
    IoCompletion awaitCompletion();

    /**
     * Waits for every request in flight, discards their completions and releases the queue (its ring on
     * io_uring). Later calls of any other method throw {@link IllegalStateException}. Idempotent.
     */
    @Override
    void close();
}
