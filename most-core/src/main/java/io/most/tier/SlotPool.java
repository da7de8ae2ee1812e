package io.most.tier;

import io.most.tier.policy.Tier;

import java.util.BitSet;

/**
 * Which segment slots of one device hold a segment. Slots at or above {@link #nextFresh()} have never
 * held data since the volume was formatted (pristine: their content is whatever the device held then);
 * slots below it may hold an old segment's bytes and are zeroed before a new segment uses them, so a
 * block never written reads as zeros on devices that started zeroed. Thread-safe.
 */
final class SlotPool {
    private final Tier tier;
    private final int slots;
    private final BitSet used;
    private int usedCount;
    private int nextFresh;
    private int reuseHint;

    SlotPool(Tier tier, int slots) {
        this.tier = tier;
        this.slots = slots;
        this.used = new BitSet(slots);
    }

    Tier tier() {
        return tier;
    }

    int slots() {
        return slots;
    }

    /** Takes a never-used slot, or returns -1. */
    synchronized int takePristine() {
        if (nextFresh >= slots) {
            return -1;
        }
        int s = nextFresh++;
        used.set(s);
        usedCount++;
        return s;
    }

    /** Takes a free slot that may hold old data, or returns -1. */
    synchronized int takeReused() {
        int s = used.nextClearBit(reuseHint);
        if (s >= nextFresh) {
            return -1;
        }
        used.set(s);
        usedCount++;
        reuseHint = s + 1;
        return s;
    }

    /** Takes a free slot, old data first (for a copy that overwrites all of it), or returns -1. */
    synchronized int takeForCopy() {
        int s = takeReused();
        return s >= 0 ? s : takePristine();
    }

    /** Returns a slot; it now may hold old data. */
    synchronized void release(int slot) {
        if (!used.get(slot)) {
            throw new IllegalStateException("slot " + slot + " of the " + tier + " device is not in use");
        }
        used.clear(slot);
        usedCount--;
        reuseHint = Math.min(reuseHint, slot);
    }

    /** Marks {@code slot} used while recovering; false if it already was (two segments claim it). */
    synchronized boolean claim(int slot) {
        if (slot < 0 || slot >= slots || used.get(slot)) {
            return false;
        }
        used.set(slot);
        usedCount++;
        return true;
    }

    /** Sets the first pristine slot (recovery: everything below the durable watermark may hold data). */
    synchronized void nextFresh(int slot) {
        nextFresh = Math.max(Math.min(slot, slots), used.length());
    }

    synchronized int nextFresh() {
        return nextFresh;
    }

    synchronized int free() {
        return slots - usedCount;
    }
}
