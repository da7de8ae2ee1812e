package io.most.device;

import io.most.errors.ConfigurationException;
import java.util.Locale;

/**
 * How a {@link DirectFileDevice} issues its I/O. Chosen per device in
 * {@link DirectFileDevice.Options#withEngine}; the default is {@link #AUTO}, or the value of the
 * system property {@value #PROPERTY} ({@code auto}, {@code io_uring} or {@code pread}) when set,
 * so a deployment or a test run can force the fallback without code changes.
 */
public enum IoEngine {
    /** io_uring where the kernel allows it, else {@code pread}/{@code pwrite} (logged once). */
    AUTO,
    /** io_uring, or the open fails with a {@link ConfigurationException} saying why it is unavailable. */
    IO_URING,
    /** Synchronous {@code pread}/{@code pwrite}: one I/O in flight per calling thread. */
    PREAD;

    /** The system property that sets the default engine. */
    public static final String PROPERTY = "most.io.engine";

    /**
     * The engine named by {@value #PROPERTY}, or {@link #AUTO} when it is unset.
     *
     * @throws ConfigurationException if the property holds another value
     */
    public static IoEngine fromSystemProperty() {
        String value = System.getProperty(PROPERTY);
        return value == null ? AUTO : parse(value);
    }

    /**
     * Parses {@code auto}, {@code io_uring} (or {@code iouring}) and {@code pread}, ignoring case.
     *
     * @throws ConfigurationException for anything else
     */
    public static IoEngine parse(String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "auto" -> AUTO;
            case "io_uring", "iouring", "io-uring" -> IO_URING;
            case "pread", "psync", "sync" -> PREAD;
            default -> throw new ConfigurationException("unknown I/O engine '" + value + "' (" + PROPERTY
                    + "): use auto, io_uring or pread");
        };
    }
}
