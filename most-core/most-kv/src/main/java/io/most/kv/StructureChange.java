package io.most.kv;

import io.most.Page;
import io.most.PageStore;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * One structure modification (split, merge, redistribution, root change) as a redo-only nested top
 * action: the caller latches and changes pages, {@linkplain #touch registers} them, and {@link #log()}
 * writes one {@link LogRecord#PAGES} record with every page's after-image and stamps the pages with its
 * LSN, all before any latch is released. So the change is atomic in the log: after a crash it is redone
 * entirely or (its record absent) none of its pages reached storage, by the WAL rule.
 *
 * <p>Pages come from and go to the free list on the {@link MetaPage}. The meta page is latched last,
 * after every tree page, and whoever holds it waits for no tree latch except a free page's, which only
 * holders of the meta page take and keep: so the latch order stays acyclic.
 */
final class StructureChange implements AutoCloseable {
    private final PageStore store;
    private final WriteAheadLog wal;
    private final java.util.function.LongSupplier unlogged;
    private final List<Page> touched = new ArrayList<>(4);
    private Page meta;

    StructureChange(PageStore store, WriteAheadLog wal) {
        this.store = store;
        this.wal = wal;
        this.unlogged = null;
    }

    /**
     * A structure change that writes no log record: for a tree whose atomicity comes from elsewhere
     * ({@link SingleWriterKvStore}'s rollback journal of page before-images); its pages are stamped
     * with {@code lsn}'s value, so the store forces the journal before writing them back.
     */
    StructureChange(PageStore store, java.util.function.LongSupplier lsn) {
        this.store = store;
        this.wal = null;
        this.unlogged = lsn;
    }

    /** Registers a latched page whose after-image the record must carry. */
    void touch(Page page) {
        for (Page p : touched) {
            if (p == page) {
                return;
            }
        }
        touched.add(page);
    }

    /** A page for a new node, exclusively latched (the caller releases it) and registered. */
    Page allocate() {
        MemorySegment m = meta().payload();
        long head = MetaPage.freeHead(m);
        Page page;
        if (head != Node.NONE) {
            page = store.write(head);
            MetaPage.setFreeHead(m, Node.link(page.payload()));
        } else {
            page = store.write(store.allocate());
        }
        page.payload().fill((byte) 0);
        touch(page);
        return page;
    }

    /** Puts a latched page on the free list (the caller still releases it). */
    void free(Page page) {
        MemorySegment m = meta().payload();
        Node.initFree(page.payload(), MetaPage.freeHead(m));
        MetaPage.setFreeHead(m, page.id());
        touch(page);
    }

    private Page meta() {
        if (meta == null) {
            meta = store.write(MetaPage.PAGE);
            touch(meta);
        }
        return meta;
    }

    /** Logs the after-images of every registered page and marks them dirty with the record's LSN. */
    long log() {
        long lsn;
        if (wal == null) {
            lsn = unlogged.getAsLong();
        } else {
            List<LogRecord.PageImage> images = new ArrayList<>(touched.size());
            for (Page p : touched) {
                images.add(image(p.id(), p.payload()));
            }
            lsn = wal.append(LogRecord.PAGES, null, LogRecord.encodePages(images));
        }
        for (Page p : touched) {
            p.markDirty(lsn);
        }
        return lsn;
    }

    static LogRecord.PageImage image(long pageId, MemorySegment p) {
        int[] r = Node.liveRanges(p);
        return new LogRecord.PageImage(pageId, r[0], bytes(p, r[0], r[1]), r[2], bytes(p, r[2], r[3]));
    }

    /** Writes a logged image over a page (zeros where the image has no bytes). */
    static void apply(LogRecord.PageImage image, MemorySegment p) {
        p.fill((byte) 0);
        MemorySegment.copy(image.part1(), 0, p, ValueLayout.JAVA_BYTE, image.start1(), image.part1().length);
        MemorySegment.copy(image.part2(), 0, p, ValueLayout.JAVA_BYTE, image.start2(), image.part2().length);
    }

    private static byte[] bytes(MemorySegment p, int from, int to) {
        byte[] out = new byte[to - from];
        MemorySegment.copy(p, ValueLayout.JAVA_BYTE, from, out, 0, out.length);
        return out;
    }

    /** Releases the meta page latch (tree pages belong to the caller). */
    @Override
    public void close() {
        if (meta != null) {
            meta.close();
        }
    }
}
