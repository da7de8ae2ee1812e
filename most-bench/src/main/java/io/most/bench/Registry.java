package io.most.bench;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Named entries of one kind, in registration order. Looking up an unknown name is a usage error that
 * lists the valid names, so every registry gives the same helpful message.
 *
 * @param <T> the kind of entry
 */
public final class Registry<T extends Named> {
    private final String kind;
    private final String plural;
    private final Map<String, T> entries = new LinkedHashMap<>();

    /**
     * @param kind   what the entries are, singular ("hierarchy"), for messages
     * @param plural the same in plural ("hierarchies")
     */
    public Registry(String kind, String plural) {
        this.kind = kind;
        this.plural = plural;
    }

    /**
     * Adds {@code entry}.
     *
     * @throws IllegalArgumentException if its name is taken
     */
    public synchronized Registry<T> register(T entry) {
        if (entries.putIfAbsent(entry.name(), entry) != null) {
            throw new IllegalArgumentException(kind + " '" + entry.name() + "' is already registered");
        }
        return this;
    }

    /** The entry called {@code name}, if any. */
    public synchronized Optional<T> find(String name) {
        return Optional.ofNullable(entries.get(name));
    }

    /**
     * The entry called {@code name}.
     *
     * @throws UsageException listing the valid names if there is none
     */
    public T get(String name) {
        return find(name).orElseThrow(() -> new UsageException(
                "unknown " + kind + " '" + name + "'; valid " + plural + ": " + String.join(", ", names())));
    }

    /** The names, in registration order. */
    public synchronized List<String> names() {
        return List.copyOf(entries.keySet());
    }

    /** The entries, in registration order. */
    public synchronized Collection<T> all() {
        return List.copyOf(entries.values());
    }

    /** What the entries are, singular. */
    public String kind() {
        return kind;
    }
}
