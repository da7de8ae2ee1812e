package io.most.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.errors.ConfigurationException;
import io.most.errors.FileInUseException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lock the examples' databases and volumes take on lock files of their own. */
class StoreFileLockTest {
    @TempDir
    Path dir;

    @Test
    void aLockFileIsCreatedHeldOnceAndReleasedByClose() {
        Path file = dir.resolve("sub/db.lock");
        try (StoreFileLock lock = StoreFileLock.acquireCreating(file, "test lock file")) {
            assertTrue(Files.isRegularFile(file), "created with its directory");
            assertEquals(file, lock.path());
            FileInUseException e = assertThrows(FileInUseException.class,
                    () -> StoreFileLock.acquireCreating(file, "test lock file"));
            assertTrue(e.getMessage().startsWith("test lock file '" + file + "' is open in another store"), e.getMessage());
            OptionalLong holder = StoreFileLock.holder(file);
            if (NativeIO.get().isPresent() && Files.isReadable(Path.of("/proc/locks"))) {
                assertEquals(OptionalLong.of(ProcessHandle.current().pid()), holder, "the holder is this process");
                assertTrue(e.getMessage().contains("(in this process, pid " + ProcessHandle.current().pid() + ")"),
                        e.getMessage());
            }
        }
        try (StoreFileLock again = StoreFileLock.acquireCreating(file, "test lock file")) {
            assertEquals(file, again.path(), "closed: the file stays and locks again");
        }
        assertTrue(StoreFileLock.holder(file).isEmpty(), "nobody holds it now");
    }

    @Test
    void aLockFileThatCannotBeCreatedIsNamed() throws Exception {
        Path notADirectory = Files.createFile(dir.resolve("plain"));
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> StoreFileLock.acquireCreating(notADirectory.resolve("x.lock"), "test lock file"));
        assertTrue(e.getMessage().startsWith("cannot create test lock file '"), e.getMessage());
    }
}
