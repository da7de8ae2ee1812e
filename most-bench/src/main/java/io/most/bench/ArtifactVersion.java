package io.most.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The versions of the peer engines' libraries, as pinned in the parent pom (the build writes them
 * into {@code engine-versions.properties}; the shaded jar keeps no manifest versions of its own).
 */
public final class ArtifactVersion {
    private static final Properties VERSIONS = load();

    private ArtifactVersion() {
    }

    /** The version of {@code engine} ({@code h2}, {@code ehcache}, {@code caffeine}), or "unknown". */
    public static String of(String engine) {
        return VERSIONS.getProperty(engine, "unknown");
    }

    private static Properties load() {
        Properties p = new Properties();
        try (InputStream in = ArtifactVersion.class.getResourceAsStream("engine-versions.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read engine-versions.properties", e);
        }
        return p;
    }
}
