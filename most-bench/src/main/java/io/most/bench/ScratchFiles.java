package io.most.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Temporary directories and data files the bench creates. Normally deleted by whoever created them;
 * a shutdown hook deletes what is left when a run is interrupted (Ctrl-C), so gigabyte data files
 * do not pile up in /tmp.
 */
public final class ScratchFiles {
    private static final Set<Path> PENDING = new LinkedHashSet<>();
    private static boolean hookInstalled;

    private ScratchFiles() {
    }

    /** Creates a fresh directory under the system temporary directory, deleted at exit if still there. */
    public static Path createTempDirectory(String prefix) {
        try {
            Path dir = Files.createTempDirectory(prefix);
            remember(dir);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory: " + e.getMessage(), e);
        }
    }

    /**
     * A fresh directory for PM files, deleted at exit if still there: under /dev/shm when this machine has
     * a writable one (tmpfs: persisting a PM range is an msync, nearly free there as a flush is on real PM,
     * where on a disk-backed file it is a write to the disk that no PM model charges for), else under the
     * system temporary directory.
     */
    public static Path createPmDirectory(String prefix) {
        Path shm = Path.of("/dev/shm");
        try {
            Path dir = Files.isDirectory(shm) && Files.isWritable(shm) ? Files.createTempDirectory(shm, prefix)
                    : Files.createTempDirectory(prefix);
            remember(dir);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory for PM files: " + e.getMessage(), e);
        }
    }

    /** Whether {@code dir} is on tmpfs under /dev/shm, where persisting PM costs nearly nothing. */
    public static boolean onShm(Path dir) {
        return dir.toAbsolutePath().startsWith(Path.of("/dev/shm"));
    }

    /** Deletes {@code path} at exit unless {@link #forget} or {@link #deleteTree} ran first. */
    public static synchronized void remember(Path path) {
        if (!hookInstalled) {
            Runtime.getRuntime().addShutdownHook(new Thread(ScratchFiles::deletePending, "most-bench-cleanup"));
            hookInstalled = true;
        }
        PENDING.add(path);
    }

    /** {@code path} has been deleted by its owner. */
    public static synchronized void forget(Path path) {
        PENDING.remove(path);
    }

    /** Deletes {@code dir} and everything in it. */
    public static void deleteTree(Path dir) {
        try {
            if (Files.exists(dir)) {
                Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                        Files.delete(file);
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                        Files.delete(d);
                        return FileVisitResult.CONTINUE;
                    }
                });
            }
            forget(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir + ": " + e.getMessage(), e);
        }
    }

    private static void deletePending() {
        List<Path> paths;
        synchronized (ScratchFiles.class) {
            paths = new ArrayList<>(PENDING);
        }
        // files first (they may sit in a pending directory), then directories
        for (int i = paths.size() - 1; i >= 0; i--) {
            try {
                deleteTree(paths.get(i));
            } catch (UncheckedIOException ignored) {
                // best effort at exit
            }
        }
    }
}
