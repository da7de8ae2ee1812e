package io.most.kv;

import io.most.errors.MostException;

/**
 * The log file does not belong to the database in the page store (another database's log, or a log
 * without its store). Nothing was changed: point {@link KvOptions} at the matching pair of files.
 */
public class LogMismatchException extends MostException {
    private static final long serialVersionUID = 1L;

    /** @param message which files disagree, and how */
    public LogMismatchException(String message) {
        super(message);
    }
}
