package io.most.it.release;

import static io.most.it.release.StagedRepository.GROUP;
import static io.most.it.release.StagedRepository.children;
import static io.most.it.release.StagedRepository.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/**
 * What the release dry run staged is what Maven Central accepts and a user needs: exactly the library
 * modules, each POM with Central's required metadata (inherited from the parent where it is written once),
 * each jar with its sources and javadoc jars and the license inside, every MOST dependency itself published,
 * and a BOM that manages every published jar and nothing of anyone else's. Runs in src-test's
 * integration-test phase, after every published module staged itself in its verify phase
 * ({@code ./mvnw -B -pl src-test -am verify -Dgroups=release} runs the dry run alone).
 */
@Tag("release")
class StagedReleaseTest {
    /** The published artifacts; a module added to or dropped from the release changes this, the BOM and the changelog. */
    private static final Set<String> PUBLISHED = Set.of("most-parent", "most-bom", "most-core", "most-kv", "most-kafka-streams", "most-spring",
            "most-spring-boot-autoconfigure", "most-spring-boot-starter");

    private static StagedRepository staged;

    @BeforeAll
    static void openStagingRepository() {
        staged = StagedRepository.fromSystemProperty(System.getProperty("most.version"));
    }

    @Test
    void exactlyTheLibraryModulesAreStaged() throws IOException {
        assertEquals(new TreeSet<>(PUBLISHED), staged.artifactIds(),
                "the published set changed: a module that must not be published sets maven.deploy.skip; "
                        + "one that must be, add it to most-bom and to this test");
    }

    @Test
    void everyPomCarriesCentralsRequiredMetadata() throws IOException {
        List<String> missing = new ArrayList<>();
        for (String artifactId : PUBLISHED) {
            for (String[] path : List.of(new String[] {"name"}, new String[] {"description"}, new String[] {"url"},
                    new String[] {"licenses", "license", "name"}, new String[] {"developers", "developer", "name"},
                    new String[] {"scm", "url"}, new String[] {"scm", "connection"})) {
                boolean own = path[0].equals("name") || path[0].equals("description");
                String value = (own ? text(staged.pom(artifactId), path[0]) : staged.inherited(artifactId, path))
                        .orElse("");
                if (value.isBlank() || value.contains("${")) {
                    missing.add(artifactId + ": " + String.join("/", path) + " = '" + value + "'");
                }
            }
        }
        assertTrue(missing.isEmpty(), "POM metadata Central requires is missing: " + missing);
    }

    @Test
    void everyJarHasSourcesJavadocAndTheLicense() throws IOException {
        for (String artifactId : PUBLISHED) {
            if (!packaging(artifactId).equals("jar")) {
                continue;
            }
            Path jar = staged.file(artifactId, "", "jar").orElseThrow(() -> new AssertionError(artifactId + ": no jar"));
            assertTrue(staged.file(artifactId, "sources", "jar").isPresent(), artifactId + ": no sources jar");
            assertTrue(staged.file(artifactId, "javadoc", "jar").isPresent(), artifactId + ": no javadoc jar");
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                assertTrue(zip.getEntry("META-INF/LICENSE") != null && zip.getEntry("META-INF/NOTICE") != null,
                        artifactId + ": the jar carries no META-INF/LICENSE and NOTICE");
            }
        }
    }

    @Test
    void everyMostArtifactAPomNamesIsPublished() throws IOException {
        List<String> unpublished = new ArrayList<>();
        for (String artifactId : PUBLISHED) {
            Element pom = staged.pom(artifactId);
            for (Element parent : children(pom, "parent")) {
                String parentId = text(parent, "artifactId").orElseThrow();
                if (!PUBLISHED.contains(parentId)) {
                    unpublished.add(artifactId + " -> parent " + parentId);
                }
            }
            for (Element dependency : children(pom, "dependencies", "dependency")) {
                boolean most = text(dependency, "groupId").orElse("").equals(GROUP);
                boolean test = text(dependency, "scope").orElse("").equals("test");
                String dependencyId = text(dependency, "artifactId").orElseThrow();
                if (most && !test && !PUBLISHED.contains(dependencyId)) {
                    unpublished.add(artifactId + " -> " + dependencyId);
                }
            }
        }
        assertTrue(unpublished.isEmpty(), "published POMs name unpublished MOST artifacts: " + unpublished);
    }

    @Test
    void bomManagesEveryPublishedJarAndNothingElse() throws IOException {
        Element bom = staged.pom("most-bom");
        assertTrue(children(bom, "parent").isEmpty(),
                "the BOM's published POM has a parent, whose dependencyManagement an importer would get too");
        Set<String> managed = new TreeSet<>();
        for (Element dependency : children(bom, "dependencyManagement", "dependencies", "dependency")) {
            String coordinates = text(dependency, "groupId").orElse("") + ":" + text(dependency, "artifactId").orElse("");
            if (!coordinates.startsWith(GROUP + ":")) {
                fail("the BOM manages " + coordinates + ", which is not MOST's: an importer's version of it would change");
            }
            managed.add(text(dependency, "artifactId").orElseThrow());
        }
        Set<String> jars = new TreeSet<>();
        for (String artifactId : PUBLISHED) {
            if (packaging(artifactId).equals("jar")) {
                jars.add(artifactId);
            }
        }
        assertEquals(jars, managed, "the BOM must manage every published jar");
    }

    private static String packaging(String artifactId) throws IOException {
        return text(staged.pom(artifactId), "packaging").orElse("jar");
    }
}
