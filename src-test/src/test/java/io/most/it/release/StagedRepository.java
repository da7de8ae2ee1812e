package io.most.it.release;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * The release dry run's staging repository (a Maven repository in deploy layout under the root's target/,
 * filled by each published module's verify phase), read as Central would: which artifacts it holds, the
 * files of each (for a snapshot, the newest deployment named by its maven-metadata.xml), and the POMs'
 * elements, inherited ones looked up through the parent chain within the repository itself.
 */
final class StagedRepository {
    static final String GROUP = "io.most";

    private final Path groupDirectory;
    private final String version;

    private StagedRepository(Path root, String version) {
        this.groupDirectory = root.resolve(GROUP.replace('.', '/'));
        this.version = version;
    }

    /**
     * The repository at the path in system property {@code most.staging.directory}, holding {@code version}.
     *
     * @throws IllegalStateException if it is not set or holds nothing of MOST: the published modules' verify
     *     phase did not run before this test (run it within {@code ./mvnw verify}, not alone)
     */
    static StagedRepository fromSystemProperty(String version) {
        String property = System.getProperty("most.staging.directory");
        if (property == null || !Files.isDirectory(Path.of(property, GROUP.replace('.', '/')))) {
            throw new IllegalStateException("no staging repository at most.staging.directory=" + property
                    + ": run this test through ./mvnw -B verify, whose published modules stage themselves first");
        }
        return new StagedRepository(Path.of(property), version);
    }

    /** The artifactIds staged, sorted. */
    SortedSet<String> artifactIds() throws IOException {
        try (Stream<Path> children = Files.list(groupDirectory)) {
            TreeSet<String> ids = new TreeSet<>();
            children.filter(p -> Files.isDirectory(p.resolve(version))).forEach(p -> ids.add(p.getFileName().toString()));
            return ids;
        }
    }

    /**
     * The staged file of {@code artifactId} with {@code classifier} (empty for none) and {@code extension}, if
     * any: for a snapshot the one its version's maven-metadata.xml lists, else the release file name.
     */
    Optional<Path> file(String artifactId, String classifier, String extension) throws IOException {
        Path directory = groupDirectory.resolve(artifactId).resolve(version);
        String suffix = (classifier.isEmpty() ? "" : "-" + classifier) + "." + extension;
        if (!version.endsWith("-SNAPSHOT")) {
            Path file = directory.resolve(artifactId + "-" + version + suffix);
            return Files.isRegularFile(file) ? Optional.of(file) : Optional.empty();
        }
        Path metadata = directory.resolve("maven-metadata.xml");
        if (!Files.isRegularFile(metadata)) {
            return Optional.empty();
        }
        for (Element entry : children(parse(metadata).getDocumentElement(), "versioning", "snapshotVersions",
                "snapshotVersion")) {
            if (text(entry, "classifier").orElse("").equals(classifier)
                    && text(entry, "extension").orElse("").equals(extension)) {
                Path file = directory.resolve(artifactId + "-" + text(entry, "value").orElseThrow() + suffix);
                return Files.isRegularFile(file) ? Optional.of(file) : Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** The staged POM of {@code artifactId}, parsed. */
    Element pom(String artifactId) throws IOException {
        Path file = file(artifactId, "", "pom")
                .orElseThrow(() -> new AssertionError(GROUP + ":" + artifactId + " has no staged POM"));
        return parse(file).getDocumentElement();
    }

    /**
     * The text of the element at {@code path} in {@code artifactId}'s POM, or else in its parent's and so on
     * up the chain (as Maven inherits name-less elements such as url, licenses, scm, developers).
     */
    Optional<String> inherited(String artifactId, String... path) throws IOException {
        Element pom = pom(artifactId);
        while (true) {
            List<Element> found = children(pom, path);
            if (!found.isEmpty()) {
                return Optional.of(found.getFirst().getTextContent().strip());
            }
            List<Element> parent = children(pom, "parent");
            if (parent.isEmpty()) {
                return Optional.empty();
            }
            String parentId = text(parent.getFirst(), "artifactId").orElseThrow();
            pom = pom(parentId);
        }
    }

    /** The child elements of {@code element} at {@code path}, each step by local name. */
    static List<Element> children(Element element, String... path) {
        List<Element> level = List.of(element);
        for (String name : path) {
            List<Element> next = new ArrayList<>();
            for (Element e : level) {
                for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
                    if (n instanceof Element child && child.getLocalName().equals(name)) {
                        next.add(child);
                    }
                }
            }
            level = next;
        }
        return level;
    }

    /** The stripped text of the single child element {@code name} of {@code element}, if present. */
    static Optional<String> text(Element element, String name) {
        List<Element> found = children(element, name);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.getFirst().getTextContent().strip());
    }

    private static Document parse(Path file) throws IOException {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return factory.newDocumentBuilder().parse(file.toFile());
        } catch (ParserConfigurationException | SAXException e) {
            throw new IOException("cannot parse " + file + ": " + e.getMessage(), e);
        }
    }
}
