package io.most.device;

/** The parallel service slots of an emulated device, kept as the virtual instants they become free. */
final class Channels {
    private Channels() {
    }

    /** Index of the slot that frees first (the lowest instant; the first of equals). */
    static int earliestFree(long[] freeAt) {
        int channel = 0;
        for (int i = 1; i < freeAt.length; i++) {
            if (freeAt[i] < freeAt[channel]) {
                channel = i;
            }
        }
        return channel;
    }
}
