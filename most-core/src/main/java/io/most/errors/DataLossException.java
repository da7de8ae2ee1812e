package io.most.errors;

/**
 * Opening the store as configured would lose data it cannot name page by page: the PM file the
 * block device depends on is missing, blank, truncated or stale; a PM frame is damaged beyond
 * identification; a superblock copy is damaged. Thrown before anything is changed. The message says
 * what would be lost and how to proceed: restore the missing file, or open again with
 * {@link io.most.PageStoreConfig.Builder#acceptDataLoss(boolean) acceptDataLoss(true)}, which discards what
 * cannot be recovered and reverts the pages involved to their block-device copies.
 */
public class DataLossException extends MostException {
    private static final long serialVersionUID = 1L;

    public DataLossException(String message) {
        super(message);
    }
}
