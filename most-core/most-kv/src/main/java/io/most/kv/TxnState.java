package io.most.kv;

/**
 * The log's view of a transaction: its id and the LSNs of its first and last records, which only the
 * {@link WriteAheadLog} changes, under its lock (so a checkpoint reads a consistent set).
 */
final class TxnState {
    final long id;
    long firstLsn;
    long lastLsn;

    TxnState(long id) {
        this.id = id;
    }

    @Override
    public String toString() {
        return "tx " + id;
    }
}
