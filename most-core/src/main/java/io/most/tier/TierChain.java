package io.most.tier;

import java.util.UUID;

/**
 * Where one device stands in the ordered device list of a volume, as recorded in its superblock:
 * the list's id (shared by every level of an N-device volume), the device's position in the list
 * (0 = fastest) and the list's length. A two-device volume is a list of length 2.
 *
 * <p>It is recorded because an N-device volume is a stack of two-device volumes (see
 * {@link TieredVolume#open(java.util.List, TierConfig)}): each device's own superblock names only its
 * level's volume, so without the list's id and the position a reordered list would be refused, if at
 * all, with an error about two unrelated volumes; with them the error says which order to pass.
 *
 * @param id       the device list's id
 * @param position the device's position in the list, 0 = fastest
 * @param length   how many devices the list has (at least 2)
 */
record TierChain(UUID id, int position, int length) {

    TierChain {
        if (length < 2 || position < 0 || position >= length) {
            throw new IllegalArgumentException("position " + position + " of a list of " + length + " devices");
        }
    }

    /** The chain record of the device below this one in the list (the capacity side of its level). */
    TierChain next() {
        return new TierChain(id, position + 1, length);
    }

    /** "device 2 of 3" for messages (1-based, as people count). */
    String describe() {
        return "device " + (position + 1) + " of " + length;
    }
}
