package io.most.it;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.errors.MostException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OLTP example's database open in one process is refused to another, with a named error, and
 * the holder keeps running: its lock file (or, once the devices lock their files, the page store's
 * device) stops the second engine before it reads or writes anything.
 */
class KvLockAcrossProcessesTest {
    @TempDir
    Path dir;

    @Test
    void aDatabaseOpenInAnotherProcessIsRefused() {
        try (ForkedJvm holder = ForkedJvm.start(WriterKills.CHILD_JVM_OPTIONS, KvWorkloadMain.class,
                List.of(dir.toString(), "1", KvCrashStore.Shape.SMALL.name()))) {
            holder.awaitLine("READY"::equals, WriterKills.PATIENCE);
            MostException e = assertThrows(MostException.class, () -> KvCrashStore.open(dir).close(),
                    "opening the database that process " + holder.pid() + " has open");
            assertTrue(e.getMessage() != null && !e.getMessage().isBlank(), e.toString());
            assertTrue(holder.isAlive(), "the holder died: " + holder.stderrTail());
        }
    }
}
