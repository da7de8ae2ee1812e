package io.most.spring.autoconfigure;

import io.most.errors.ConfigurationException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.Environment;

/**
 * Turns MOST's {@link ConfigurationException} into Boot's "APPLICATION FAILED TO START" report. When
 * the starter traced the error to {@code most.*} properties ({@link MostPropertyException}), the
 * report lists each with the value it had and where it was set, and the action names the property to
 * change; MOST's own message says what is wrong. Any other {@code ConfigurationException} (from a
 * store the application built itself) is reported with MOST's message.
 *
 * <p>Registered in {@code META-INF/spring.factories}; Boot passes the {@link Environment}.
 */
public class MostConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<ConfigurationException> {
    private final Environment environment;

    /** @param environment the failed application's environment, to find where each property was set */
    public MostConfigurationFailureAnalyzer(Environment environment) {
        this.environment = environment;
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, ConfigurationException cause) {
        MostPropertyException traced = findCause(rootFailure, MostPropertyException.class);
        if (traced == null) {
            return new FailureAnalysis("MOST rejected its configuration: " + cause.getMessage(),
                    "Change the MOST setting named above in the code that builds the PageStore or TieredVolume.",
                    cause);
        }
        StringBuilder description = new StringBuilder("MOST rejected its configuration: ")
                .append(traced.getMessage()).append('\n');
        for (MostPropertyException.Property property : traced.properties()) {
            describe(description, property);
        }
        MostPropertyException.Property first = traced.properties().getFirst();
        StringBuilder action = new StringBuilder("Update your application's configuration: change ")
                .append(first.name());
        for (MostPropertyException.Property other : traced.properties().subList(1, traced.properties().size())) {
            action.append(" or ").append(other.name());
        }
        action.append(" as the description says (the most.* properties are listed in the README's Spring Boot section).");
        return new FailureAnalysis(description.toString(), action.toString(), traced);
    }

    private void describe(StringBuilder out, MostPropertyException.Property property) {
        ConfigurationProperty source = find(property.name());
        out.append("\n    Property: ").append(property.name());
        Object value = source != null ? source.getValue() : property.value();
        out.append("\n    Value: ").append(value == null ? "(not set)" : "\"" + value + "\"");
        Origin origin = source != null ? source.getOrigin() : null;
        if (origin != null) {
            out.append("\n    Origin: ").append(origin);
        } else if (source == null && property.value() != null) {
            out.append("\n    Origin: the default");
        }
    }

    private ConfigurationProperty find(String name) {
        if (environment == null) {
            return null;
        }
        ConfigurationPropertyName key = ConfigurationPropertyName.of(name);
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            ConfigurationProperty found = source.getConfigurationProperty(key);
            if (found != null) {
                return found;
            }
        }
        return null;
    }
}
