package io.most.tier;

import io.most.errors.ConfigurationException;
import io.most.device.AbstractBlockDevice;
import io.most.device.BlockDevice;
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
 * opens nothing itself, so it never bypasses them. A holder whose two devices were both closed under
 * it is dead (it can no longer write): a new open replaces it, as after a crash.
 */
final class OpenVolumes {
    private static final ConcurrentMap<UUID, Holder> OPEN = new ConcurrentHashMap<>();

    /** An open volume's name and devices. */
    private record Holder(String name, BlockDevice performance, BlockDevice capacity) {
        /**
         * Whether the holder can no longer touch the media: both its devices were closed under it (as
         * the kernel closes a dead process's files), e.g. a test abandoning a volume to simulate a crash.
         */
        boolean isDead() {
            return !isOpen(performance) && !isOpen(capacity);
        }

        private static boolean isOpen(BlockDevice device) {
            return !(device instanceof AbstractBlockDevice d) || d.isOpen();
        }
    }

    private OpenVolumes() {
    }

    /**
     * Records volume {@code id} as open under {@code name} on these devices.
     *
     * @throws ConfigurationException if it is open already (and its holder's devices are not both
     *                                closed), naming the holder
     */
    static void register(UUID id, String name, BlockDevice performance, BlockDevice capacity) {
        Holder mine = new Holder(name, performance, capacity);
        Holder holder = OPEN.compute(id, (k, old) -> old == null || old.isDead() ? mine : old);
        if (holder != mine) {
            throw new ConfigurationException("tiered volume " + id + " is already open in this process as '"
                    + holder.name() + "': close it before opening it again (two open volumes over the same devices"
                    + " would overwrite each other's metadata and data)");
        }
    }

    /** Forgets volume {@code id} if {@code performance} is its holder's (closed, crashed, or its open failed). */
    static void release(UUID id, BlockDevice performance) {
        OPEN.computeIfPresent(id, (k, old) -> old.performance() == performance ? null : old);
    }
}
