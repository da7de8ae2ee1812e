package io.most.kv;

import io.most.errors.MostException;

/**
 * The {@link KvOptions} ask for something the database on disk was created otherwise (its key bound,
 * {@link KvOptions.Builder#maxKeySize}, is fixed at creation). Nothing was changed: open it with the
 * database's own setting, or leave the option unset to take it.
 */
public class OptionsMismatchException extends MostException {
    private static final long serialVersionUID = 1L;

    /** @param message which option disagrees with the database, and how */
    public OptionsMismatchException(String message) {
        super(message);
    }
}
