package io.most.spring.autoconfigure;

import io.most.errors.ConfigurationException;
import java.util.List;
import java.util.Objects;

/**
 * A MOST {@link ConfigurationException} traced back to the {@code most.*} properties that caused it,
 * so that {@link MostConfigurationFailureAnalyzer} can name them in Boot's startup report. The
 * message is MOST's own (it says what to change); the cause is the exception MOST threw.
 */
public class MostPropertyException extends ConfigurationException {
    private static final long serialVersionUID = 1L;

    /** A property involved and the value it was bound to (null when unset). */
    public record Property(String name, Object value) {
        public Property {
            Objects.requireNonNull(name, "name");
        }
    }

    private final transient List<Property> properties;

    /**
     * @param message    what is wrong and what to change
     * @param cause      the exception MOST threw, or null when the starter found the problem itself
     * @param properties the properties to change, most likely first; at least one
     */
    public MostPropertyException(String message, Throwable cause, List<Property> properties) {
        super(message, cause);
        if (properties.isEmpty()) {
            throw new IllegalArgumentException("a MostPropertyException names at least one property");
        }
        this.properties = List.copyOf(properties);
    }

    /** A required property that is not set. */
    public static MostPropertyException missing(String property, String what) {
        return new MostPropertyException(property + " is not set: " + what, null,
                List.of(new Property(property, null)));
    }

    /** The properties to change, most likely first. */
    public List<Property> properties() {
        return properties;
    }
}
