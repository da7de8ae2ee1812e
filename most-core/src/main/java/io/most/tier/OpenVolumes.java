package io.most.tier;

import io.most.ConfigurationException;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The tiered volumes open in this JVM, by volume id, so that a second {@link TieredVolume#open} of a
 * volume that is open already is refused instead of recovering it a second time: two live volumes
 * over the same devices would each write their own checkpoints and journal over the other's, and each
 * place segments in slots the other believes free.
 *
 * <p>This covers every kind of device in one process, including devices that hold no OS lock (memory,
 * emulated or faulty wrappers, the same device object passed twice). Across processes the devices'
 * own file locks refuse the second open ({@code DirectFileDevice}, {@code PmemDevice}); the volume
 * opens nothing itself, so it never bypasses them.
 */
final class OpenVolumes {
    private static final ConcurrentMap<UUID, String> OPEN = new ConcurrentHashMap<>();

    private OpenVolumes() {
    }

    /**
     * Records volume {@code id} as open under {@code name}.
     *
     * @throws ConfigurationException if it is open already, naming the holder
     */
    static void register(UUID id, String name) {
        String holder = OPEN.putIfAbsent(id, name);
        if (holder != null) {
            throw new ConfigurationException("tiered volume " + id + " is already open in this process as '" + holder
                    + "': close it before opening it again (two open volumes over the same devices would overwrite"
                    + " each other's metadata and data)");
        }
    }

    /** Forgets volume {@code id} (closed, crashed, or its open failed). */
    static void release(UUID id) {
        OPEN.remove(id);
    }
}
