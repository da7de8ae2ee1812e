package io.most.device;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Some requests of a {@link BlockDevice#transferAll} batch failed. Every request of the batch was
 * still attempted and had finished when this was thrown, so no buffer of the batch is in use any more;
 * the requests not named in {@link #failures()} completed. The cause is the first failure (lowest
 * index); the others are attached as suppressed exceptions.
 */
public class BatchIOException extends DeviceIOException {
    private static final long serialVersionUID = 1L;

    private final transient SortedMap<Integer, RuntimeException> failures;
    private final int batchSize;

    /**
     * @param device    device name for the message
     * @param batchSize number of requests in the batch
     * @param failures  failure of each failed request by its index in the batch; not empty
     */
    public BatchIOException(String device, int batchSize, Map<Integer, RuntimeException> failures) {
        this(device, batchSize, new TreeMap<>(failures));
    }

    private BatchIOException(String device, int batchSize, SortedMap<Integer, RuntimeException> sorted) {
        super(sorted.size() + " of " + batchSize + " requests of a batch on device '" + device + "' failed;"
                + " request " + sorted.firstKey() + ": " + sorted.get(sorted.firstKey()).getMessage(),
                sorted.get(sorted.firstKey()));
        this.failures = Collections.unmodifiableSortedMap(sorted);
        this.batchSize = batchSize;
        suppressAll(sorted.values());
    }

    /** The failure of each failed request, by its index in the batch. */
    public SortedMap<Integer, RuntimeException> failures() {
        return failures;
    }

    /** Number of requests in the batch. */
    public int batchSize() {
        return batchSize;
    }
}
