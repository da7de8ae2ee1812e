package io.most.spring.autoconfigure;

import io.most.errors.ConfigurationException;
import io.most.device.DeviceFullException;
import java.util.List;
import java.util.function.Supplier;

/**
 * Runs one step of building MOST from properties and, when MOST rejects it, rethrows the error as a
 * {@link MostPropertyException} naming the properties that step consumed. Steps are kept small (one
 * property group each) so that the report names the property to change, not the whole prefix.
 */
final class PropertyAttribution {
    private PropertyAttribution() {
    }

    /**
     * Runs {@code step}; a {@link ConfigurationException}, an {@link IllegalArgumentException} (MOST's
     * error for a bad name or probability) or a {@link DeviceFullException} (a size larger than the
     * free space) becomes a {@link MostPropertyException} naming {@code properties}.
     */
    static <T> T attribute(Supplier<T> step, MostPropertyException.Property... properties) {
        try {
            return step.get();
        } catch (MostPropertyException e) {
            throw e;
        } catch (ConfigurationException | IllegalArgumentException | DeviceFullException e) {
            throw new MostPropertyException(e.getMessage(), e, List.of(properties));
        }
    }

    /** Shorthand for a property and its bound value. */
    static MostPropertyException.Property property(String name, Object value) {
        return new MostPropertyException.Property(name, value);
    }
}
