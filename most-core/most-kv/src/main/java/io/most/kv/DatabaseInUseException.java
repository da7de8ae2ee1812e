package io.most.kv;

import io.most.errors.MostException;

/**
 * The database is open already, in this process or another: its lock file is held. Nothing was
 * read or changed. Close the other {@link KvDatabase} first.
 */
public class DatabaseInUseException extends MostException {
    private static final long serialVersionUID = 1L;

    /** @param message which database, which lock file, and the holder if known */
    public DatabaseInUseException(String message) {
        super(message);
    }
}
