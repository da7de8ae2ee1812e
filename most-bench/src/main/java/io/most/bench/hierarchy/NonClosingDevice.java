package io.most.bench.hierarchy;

import io.most.device.BlockDevice;
import io.most.device.ForwardingDevice;

/**
 * A view of a device that ignores {@link #close()}: a page store takes ownership of its block device
 * and closes it, but the bench opens two stores in turn on the same device (one to load the data set,
 * one to measure) and closes the device itself afterwards.
 */
final class NonClosingDevice extends ForwardingDevice {

    NonClosingDevice(BlockDevice device) {
        super(device);
    }

    /** Does nothing: the owner of the wrapped device closes it. */
    @Override
    public void close() {
    }

    @Override
    public String toString() {
        return "NonClosing[" + inner() + "]";
    }
}
