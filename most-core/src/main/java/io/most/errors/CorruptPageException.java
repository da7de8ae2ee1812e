package io.most.errors;

/**
 * A page failed its checksum or header check (a torn write, media corruption, or a file that is not
 * what the store expects). Names the page and the tier it was read from; the page is never returned.
 */
public class CorruptPageException extends MostException {
    private static final long serialVersionUID = 1L;
    private final long pageId;
    private final String tier;

    public CorruptPageException(long pageId, String tier, String detail) {
        super("page " + pageId + " on " + tier + " is corrupt: " + detail
                + " (restore it from the log or a backup; the store keeps serving other pages)");
        this.pageId = pageId;
        this.tier = tier;
    }

    public long pageId() {
        return pageId;
    }

    /** {@code "pm"} or {@code "ssd"}. */
    public String tier() {
        return tier;
    }
}
