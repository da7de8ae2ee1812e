package io.most.kv;

import io.most.errors.MostException;

/**
 * A transaction could not get a key lock: it would deadlock, or it waited longer than
 * {@link KvOptions#lockTimeout()}. The transaction must be aborted (closing it does) and may be retried;
 * auto-commit operations have already been rolled back when this is thrown.
 */
public class TransactionConflictException extends MostException {
    private static final long serialVersionUID = 1L;

    /** @param message what conflicted */
    public TransactionConflictException(String message) {
        super(message);
    }
}
