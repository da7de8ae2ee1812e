package io.most.tier;

import io.most.device.BlockDevice;
import io.most.errors.ConfigurationException;
import io.most.tier.policy.Tier;
import java.security.SecureRandom;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * What {@link TieredVolume#open} does with two devices: format a new volume with {@code layout}, or
 * recover the one with {@code layout}; {@code chain} is the device-list record to write on format.
 * Built by {@link #of}, which checks the devices' labels, geometry and position in the device list
 * and refuses every mismatch by name before anything is written.
 */
record OpenPlan(VolumeLayout layout, boolean format, TierChain chain) {

    /** Refuses a device list of fewer than two devices, a device given twice, mixed block sizes, or a volume in it. */
    static void requireList(List<BlockDevice> devices) {
        if (devices.size() < 2) {
            throw new ConfigurationException("a tiered volume needs at least two devices, fastest first; "
                    + devices.size() + " given");
        }
        Set<BlockDevice> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        BlockDevice first = devices.getFirst();
        for (int i = 0; i < devices.size(); i++) {
            BlockDevice d = devices.get(i);
            if (!seen.add(d)) {
                throw new ConfigurationException("device '" + d.name() + "' was given twice (again as device " + (i + 1)
                        + "): use distinct devices");
            }
            if (d.blockSize() != first.blockSize()) {
                throw new ConfigurationException("device " + (i + 1) + " '" + d.name() + "' has " + d.blockSize()
                        + "-byte blocks but device 1 '" + first.name() + "' has " + first.blockSize()
                        + "-byte blocks: use devices with the same block size");
            }
            if (d instanceof TieredVolume) {
                throw new ConfigurationException("device " + (i + 1) + " '" + d.name() + "' is a tiered volume: list"
                        + " its devices instead");
            }
        }
    }

    /** A new volume or device-list id. */
    static UUID randomId() {
        SecureRandom random = new SecureRandom();
        return new UUID(random.nextLong(), random.nextLong());
    }

    /**
     * Checks the devices and decides between formatting and recovering. {@code wanted} is where the
     * performance device stands in the device list; its id is null when any list will do (the
     * two-device open).
     */
    static OpenPlan of(BlockDevice perf, BlockDevice cap, TierConfig config, TierChain wanted) {
        if (perf == cap) {
            throw new ConfigurationException("device '" + perf.name() + "' was given as both the performance and the"
                    + " capacity device: use two devices");
        }
        if (perf.blockSize() != cap.blockSize()) {
            throw new ConfigurationException("performance device '" + perf.name() + "' has " + perf.blockSize()
                    + "-byte blocks but capacity device '" + cap.name() + "' has " + cap.blockSize()
                    + "-byte blocks: use devices with the same block size");
        }
        if (config.subpageSize() % perf.blockSize() != 0) {
            throw new ConfigurationException("subpage size " + config.subpageSize() + " is not a multiple of the"
                    + " devices' block size " + perf.blockSize() + ": configure subpageSize(" + perf.blockSize()
                    + ") or larger");
        }
        VolumeLayout.Label p = VolumeLayout.readLabel(perf);
        VolumeLayout.Label c = VolumeLayout.readLabel(cap);
        switch (p.found()) {
            case FOREIGN -> throw new ConfigurationException("performance device '" + perf.name() + "' holds data that"
                    + " is not a MOST tiered volume (or its superblock is damaged): use a blank device");
            case BLANK -> {
                requireBlankOrOwn(cap, c, null);
                return new OpenPlan(newLayout(perf, cap, config), true, newChain(wanted));
            }
            case VOLUME -> {
                UUID id = p.layout().volumeId();
                if (p.role() != Tier.PERFORMANCE) {
                    boolean swapped = c.found() == VolumeLayout.Found.VOLUME && c.layout().volumeId().equals(id)
                            && c.role() == Tier.PERFORMANCE;
                    throw new ConfigurationException("device '" + perf.name() + "' is the capacity device of tiered"
                            + " volume " + id + (swapped ? ", and '" + cap.name() + "' its performance device: the"
                            + " two arguments are swapped" : ", not a performance device"));
                }
                TierChain chain = checkPosition(perf, p.chain(), wanted);
                if (!p.ready()) {
                    // formatting never finished: nothing was stored, so format again
                    requireBlankOrOwn(cap, c, id);
                    return new OpenPlan(newLayout(perf, cap, config), true, chain);
                }
                checkCapacityLabel(perf, cap, c, p.layout());
                checkGeometry(perf, cap, config, p.layout());
                return new OpenPlan(p.layout(), false, chain);
            }
            default -> throw new IllegalStateException();
        }
    }

    private static TierChain newChain(TierChain wanted) {
        return wanted.id() != null ? wanted : new TierChain(randomId(), wanted.position(), wanted.length());
    }

    /**
     * Refuses a performance device recorded at another place of another device list than {@code wanted}
     * (a part of an N-device volume opened alone, or a reordered list), and returns the record to keep.
     */
    private static TierChain checkPosition(BlockDevice perf, TierChain recorded, TierChain wanted) {
        if (recorded == null) { // formatted before the record existed: a two-device volume
            if (wanted.length() != 2) {
                throw new ConfigurationException("device '" + perf.name() + "' belongs to a two-device tiered volume,"
                        + " but " + wanted.length() + " devices were given: open it with its other device alone");
            }
            return newChain(wanted);
        }
        if (recorded.length() != wanted.length() || recorded.position() != wanted.position()
                || wanted.id() != null && !wanted.id().equals(recorded.id())) {
            throw new ConfigurationException("device '" + perf.name() + "' is " + recorded.describe() + " of a tiered"
                    + " volume, but was given as " + wanted.describe() + (recorded.length() > 2
                    ? ": open all " + recorded.length() + " devices, fastest first, with TieredVolume.open(List, TierConfig)"
                    : ": pass the devices in the order the volume was created with"));
        }
        return recorded;
    }

    private static VolumeLayout newLayout(BlockDevice perf, BlockDevice cap, TierConfig config) {
        return VolumeLayout.plan(perf, cap, config, randomId(), new SecureRandom().nextLong());
    }

    /** A capacity device for a new volume must be blank, or belong to the unfinished volume {@code own}. */
    private static void requireBlankOrOwn(BlockDevice cap, VolumeLayout.Label c, UUID own) {
        if (c.found() == VolumeLayout.Found.FOREIGN) {
            throw new ConfigurationException("capacity device '" + cap.name() + "' holds data that is not a MOST"
                    + " tiered volume: use a blank device");
        }
        if (c.found() == VolumeLayout.Found.VOLUME && !c.layout().volumeId().equals(own)) {
            throw new ConfigurationException("capacity device '" + cap.name() + "' belongs to tiered volume "
                    + c.layout().volumeId() + " (as its " + c.role().name().toLowerCase(java.util.Locale.ROOT)
                    + " device): open it with that volume's other device, or use a blank device");
        }
    }

    private static void checkCapacityLabel(BlockDevice perf, BlockDevice cap, VolumeLayout.Label c,
                                           VolumeLayout layout) {
        UUID id = layout.volumeId();
        switch (c.found()) {
            case BLANK -> throw new ConfigurationException("capacity device '" + cap.name() + "' is blank, but"
                    + " performance device '" + perf.name() + "' belongs to tiered volume " + id
                    + ": pass that volume's capacity device");
            case FOREIGN -> throw new ConfigurationException("capacity device '" + cap.name() + "' holds data that is"
                    + " not a MOST tiered volume, but performance device '" + perf.name() + "' belongs to tiered volume "
                    + id + ": pass that volume's capacity device");
            case VOLUME -> {
                if (!c.layout().volumeId().equals(id)) {
                    throw new ConfigurationException("capacity device '" + cap.name() + "' belongs to tiered volume "
                            + c.layout().volumeId() + ", but performance device '" + perf.name()
                            + "' belongs to tiered volume " + id + ": pass the two devices of one volume");
                }
                if (c.role() != Tier.CAPACITY) {
                    throw new ConfigurationException("capacity device '" + cap.name() + "' is a performance device"
                            + " of tiered volume " + id + ": pass its capacity device");
                }
            }
        }
    }

    private static void checkGeometry(BlockDevice perf, BlockDevice cap, TierConfig config, VolumeLayout layout) {
        if (layout.blockSize() != perf.blockSize()) {
            throw new ConfigurationException("tiered volume on '" + perf.name() + "' was formatted with "
                    + layout.blockSize() + "-byte blocks; the devices now have " + perf.blockSize() + "-byte blocks");
        }
        if (layout.segmentSize() != config.segmentSize() || layout.subpageSize() != config.subpageSize()) {
            throw new ConfigurationException("tiered volume on '" + perf.name() + "' was formatted with "
                    + layout.segmentSize() + "-byte segments and " + layout.subpageSize() + "-byte subpages: configure"
                    + " segmentSize(" + layout.segmentSize() + ") and subpageSize(" + layout.subpageSize() + ")");
        }
        if (layout.perfCapacity() != perf.capacity() || layout.capCapacity() != cap.capacity()) {
            throw new ConfigurationException("tiered volume was formatted on devices of " + layout.perfCapacity()
                    + " (performance '" + perf.name() + "') and " + layout.capCapacity() + " (capacity '" + cap.name()
                    + "') bytes, now " + perf.capacity() + " and " + cap.capacity()
                    + ": restore their sizes (resizing is not supported yet)");
        }
    }
}
