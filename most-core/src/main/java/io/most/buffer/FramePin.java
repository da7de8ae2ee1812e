package io.most.buffer;

/**
 * The {@link io.most.PagePin} of this buffer manager: {@code read}'s shared latch
 * ({@link PageAccess#pinShared}) and the typed reads of {@link FrameReader}, with no handle.
 */
final class FramePin extends FrameReader implements io.most.PagePin {
    private boolean pinned;

    FramePin(PageAccess store, FramePool dram, int[] dramMapping, FramePool pm, int[] pmMapping,
            long payloadBytes) {
        super(store, dram, dramMapping, pm, pmMapping, payloadBytes);
    }

    @Override
    public void pin(long pageId) {
        if (pinned) {
            throw new IllegalStateException("the pin holds a page: unpin() first");
        }
        long answer = store.pinShared(pageId);
        onFrame(PinnedFrame.isPm(answer), PinnedFrame.frame(answer));
        pinned = true;
    }

    @Override
    public void unpin() {
        if (!pinned) {
            throw new IllegalStateException("the pin holds no page: pin(pageId) first");
        }
        pinned = false;
        FrameRecords.unlatchShared(inPm ? pmRecords : dramRecords, record);
        base = NO_BASE; // its reads fail from now on
    }

    @Override
    public boolean isPinned() {
        return pinned;
    }

    @Override
    String noPageHint() {
        return "pin(pageId) first";
    }

    @Override
    String kind() {
        return "PagePin";
    }
}
