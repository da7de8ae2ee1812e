package io.most.device;

/**
 * The device (or the file system under it) has no space left for a write or a preallocation.
 * Data written before stays intact; free space or grow the device, then retry.
 */
public class DeviceFullException extends DeviceIOException {
    private static final long serialVersionUID = 1L;

    public DeviceFullException(String message) {
        super(message);
    }
}
