package io.most.buffer;

import io.most.errors.DataLossException;

/**
 * The one rule for damage that opening cannot get past without losing data: refuse with a
 * {@link DataLossException} that says what would be lost and how to proceed, or, when the
 * configuration accepts the loss ({@code acceptDataLoss(true)}), log it and go on.
 */
final class DataLoss {
    private static final System.Logger LOG = System.getLogger(DataLoss.class.getName());

    private DataLoss() {
    }

    /**
     * @param what        what is damaged and what depends on it
     * @param remedy      what restores the data (e.g. "restore that file")
     * @param consequence what accepting the loss does (e.g. "revert those pages to their block-device copies")
     */
    static void refuseUnlessAccepted(boolean accepted, String what, String remedy, String consequence) {
        if (!accepted) {
            throw new DataLossException(what + ": " + remedy + ", or open with acceptDataLoss(true) to " + consequence);
        }
        LOG.log(System.Logger.Level.WARNING, what + "; acceptDataLoss is set, so opening goes on to " + consequence);
    }
}
