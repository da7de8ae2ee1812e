package io.most.errors;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Some pages of a batch read ({@link io.most.PageStore#prefetch(long[], int, int)}, {@link io.most.PageStore#readAll})
 * could not be read. Every other page of the batch was read (and stays buffered): one page's failure
 * never costs the others. {@link #failures()} names each failed page with the error a single
 * {@link io.most.PageStore#read} of it would have thrown ({@link CorruptPageException} for a torn or corrupt
 * page, {@link IllegalArgumentException} for a page that is not allocated, a device error for a failed
 * read); the cause is the failure of the lowest page id, the others are attached as suppressed.
 */
public class BatchReadException extends MostException {
    private static final long serialVersionUID = 1L;

    private final transient SortedMap<Long, RuntimeException> failures;
    private final int batchSize;

    /**
     * @param batchSize pages in the batch
     * @param failures  the failure of each failed page, by page id; not empty
     */
    public BatchReadException(int batchSize, Map<Long, RuntimeException> failures) {
        this(batchSize, nonEmpty(new TreeMap<>(failures)));
    }

    private static SortedMap<Long, RuntimeException> nonEmpty(SortedMap<Long, RuntimeException> failures) {
        if (failures.isEmpty()) {
            throw new IllegalArgumentException("a BatchReadException names at least one failed page");
        }
        return failures;
    }

    private BatchReadException(int batchSize, SortedMap<Long, RuntimeException> sorted) {
        super(sorted.size() + " of " + batchSize + " pages of a batch read failed (the others were read); page "
                + sorted.firstKey() + ": " + sorted.get(sorted.firstKey()).getMessage(), sorted.get(sorted.firstKey()));
        this.failures = Collections.unmodifiableSortedMap(sorted);
        this.batchSize = batchSize;
        suppressAll(sorted.values());
    }

    /** The failure of each failed page, by page id, in ascending id order. */
    public SortedMap<Long, RuntimeException> failures() {
        return failures;
    }

    /** Pages in the batch (ids given, duplicates included). */
    public int batchSize() {
        return batchSize;
    }
}
