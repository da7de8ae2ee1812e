package io.most.kv;

/**
 * The rollback journal of a {@link SingleWriterKvStore} is damaged where it cannot be (its header), so
 * the store cannot tell which checkpoint its pages belong to. Nothing was changed; the store must be
 * deleted and rebuilt from its owner's log (for Kafka Streams: restored from the changelog topic).
 */
public class CorruptJournalException extends KvException {
    private static final long serialVersionUID = 1L;

    /** @param message what is damaged and what to do */
    public CorruptJournalException(String message) {
        super(message, null);
    }
}
