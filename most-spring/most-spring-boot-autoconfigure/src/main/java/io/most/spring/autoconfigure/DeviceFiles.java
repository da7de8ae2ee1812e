package io.most.spring.autoconfigure;

import static io.most.spring.autoconfigure.PropertyAttribution.attribute;
import static io.most.spring.autoconfigure.PropertyAttribution.property;

import io.most.errors.ConfigurationException;
import io.most.device.DirectFileDevice;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.springframework.util.unit.DataSize;

/** Opens the O_DIRECT files named by properties, each failure naming the file and size properties. */
final class DeviceFiles {
    private DeviceFiles() {
    }

    /**
     * Opens {@code file} as a device of {@code size}, creating its directory first (a Spring
     * application names a data directory and expects it to be made, as a database would).
     *
     * @param fileProperty the property that named {@code file}
     * @param sizeProperty the property that named {@code size}
     */
    static DirectFileDevice open(Path file, String fileProperty, Object fileValue, DataSize size, String sizeProperty,
            boolean bufferedFallback) {
        MostPropertyException.Property fileProp = property(fileProperty, fileValue);
        MostPropertyException.Property sizeProp = property(sizeProperty, size);
        attribute(() -> createParent(file), fileProp);
        DirectFileDevice.Options options = DirectFileDevice.Options.defaults().withBufferedFallback(bufferedFallback);
        // one step consumes both: MOST's message says which of the two is wrong
        return attribute(() -> DirectFileDevice.open(file, size.toBytes(), options), fileProp, sizeProp);
    }

    /**
     * Creates the directory of {@code file} if missing.
     *
     * @throws ConfigurationException if it cannot be created (a file in the way, no permission)
     */
    static Path createParent(Path file) {
        Path dir = file.toAbsolutePath().getParent();
        try {
            return dir == null ? null : Files.createDirectories(dir);
        } catch (IOException e) {
            throw new ConfigurationException("cannot create the directory '" + dir + "' of '" + file + "': " + e
                    + "; create it or choose another path", e);
        }
    }
}
