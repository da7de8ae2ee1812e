package io.most.bench.workload.ycsb;

/**
 * The operations of YCSB's CoreWorkload, in the order its operation chooser lists them, then the
 * multi-get of {@link YcsbMix#multiGet} (last, so that the core mixes draw as CoreWorkload does).
 */
enum YcsbOperation {
    READ, UPDATE, INSERT, SCAN, READ_MODIFY_WRITE, MULTI_GET;

    /** The JSON field that counts this operation, e.g. {@code read_modify_write_ops}. */
    String countField() {
        return name().toLowerCase(java.util.Locale.ROOT) + "_ops";
    }
}
