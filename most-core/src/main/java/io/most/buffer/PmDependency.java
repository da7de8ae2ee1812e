package io.most.buffer;

import java.util.UUID;

/**
 * The PM file a store's block device depends on, recorded in the block store's superblock: the PM
 * file's own id, its frame count and its generation (raised at every open, PM file first, so a stale
 * copy of the right file is recognised). {@link #NONE} when no page can have its only copy in PM.
 */
record PmDependency(UUID pmId, long frames, long generation) {
    static final PmDependency NONE = new PmDependency(new UUID(0, 0), 0, 0);

    boolean attached() {
        return pmId.getMostSignificantBits() != 0 || pmId.getLeastSignificantBits() != 0;
    }

    String describe() {
        return "PM file " + pmId + " (" + frames + " frames, generation " + generation + ")";
    }
}
