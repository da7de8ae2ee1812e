package io.most.errors;

/**
 * The store cannot satisfy a request for space: every page id is allocated, or every buffer frame is
 * pinned. Nothing already stored is affected; free pages, release pinned pages, or configure more.
 */
public class OutOfSpaceException extends MostException {
    private static final long serialVersionUID = 1L;

    public OutOfSpaceException(String message) {
        super(message);
    }
}
