package io.most.kv;

import io.most.errors.MostException;

/**
 * The log is damaged before its end: a record fails its checksum but valid records follow it, so it is
 * not a torn tail left by a crash. Nothing was truncated or changed; restore the log from a backup.
 */
public class CorruptLogException extends MostException {
    private static final long serialVersionUID = 1L;
    private final long lsn;

    /** @param lsn where the damage starts; @param message what is wrong */
    public CorruptLogException(long lsn, String message) {
        super(message);
        this.lsn = lsn;
    }

    /** The LSN (log offset) of the first damaged record. */
    public long lsn() {
        return lsn;
    }
}
