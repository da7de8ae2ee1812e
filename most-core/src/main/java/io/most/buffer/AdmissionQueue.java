package io.most.buffer;

import java.util.LinkedHashSet;
import java.util.Iterator;

/**
 * HyMEM's NVM admission queue: a page evicted from DRAM is admitted to PM only if it was evicted
 * recently before (its id is still in this FIFO); otherwise its id is queued and it goes to SSD.
 */
final class AdmissionQueue {
    private final int capacity;
    private final LinkedHashSet<Long> queue = new LinkedHashSet<>();

    AdmissionQueue(int capacity) {
        this.capacity = Math.max(1, capacity);
    }

    /** Whether {@code pageId} is admitted now; if not, it is queued for next time. */
    synchronized boolean admit(long pageId) {
        if (queue.remove(pageId)) {
            return true;
        }
        if (queue.size() >= capacity) {
            Iterator<Long> oldest = queue.iterator();
            oldest.next();
            oldest.remove();
        }
        queue.add(pageId);
        return false;
    }
}
