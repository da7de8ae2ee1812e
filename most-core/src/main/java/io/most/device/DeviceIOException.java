package io.most.device;

import io.most.errors.MostException;

/** An I/O operation failed on a device. The message names the device, the operation and the offset. */
public class DeviceIOException extends MostException {
    private static final long serialVersionUID = 1L;

    public DeviceIOException(String message) {
        super(message);
    }

    public DeviceIOException(String message, Throwable cause) {
        super(message, cause);
    }
}
