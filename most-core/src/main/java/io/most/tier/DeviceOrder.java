package io.most.tier;

import io.most.errors.ConfigurationException;
import io.most.device.BlockDevice;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Checks an ordered device list against the order recorded on the devices ({@link TierChain}) before
 * any level of an N-device volume is opened, so that a reordered, incomplete or mixed list is refused
 * with an error that says what is wrong and, when it can, the order to pass — instead of a lower
 * level opening, recovering and checkpointing before an upper one notices that its capacity side
 * belongs to another volume.
 *
 * <p>Blank devices are skipped: formatting goes bottom-up, so after a crash during it the fastest
 * devices may still be blank, and each level's open formats or refuses them itself. So are devices
 * holding foreign data, which the level's open names.
 */
final class DeviceOrder {

    private DeviceOrder() {
    }

    /**
     * Returns the id of the list the devices belong to, or null if none of them carries one (all blank,
     * or a two-device volume from before the record existed).
     *
     * @throws ConfigurationException if the devices were created as a list of another length, belong to
     *                                different volumes, or stand in another order than they were created in
     */
    static UUID check(List<BlockDevice> devices) {
        int n = devices.size();
        TierChain[] recorded = new TierChain[n];
        UUID id = null;
        String idOwner = null;
        for (int i = 0; i < n; i++) {
            BlockDevice device = devices.get(i);
            VolumeLayout.Label label = VolumeLayout.readLabel(device);
            if (label.found() != VolumeLayout.Found.VOLUME) {
                continue;
            }
            TierChain chain = label.chain();
            if (chain == null) {
                if (n == 2) {
                    continue; // a two-device volume formatted before the record: its roles are checked on open
                }
                throw new ConfigurationException("device '" + device.name() + "' belongs to a two-device tiered volume,"
                        + " but " + n + " devices were given: open it with its other device alone");
            }
            if (chain.length() != n) {
                throw new ConfigurationException("device '" + device.name() + "' is " + chain.describe() + " of a"
                        + " tiered volume, but " + n + " devices were given: pass all " + chain.length()
                        + " of its devices, fastest first");
            }
            if (id == null) {
                id = chain.id();
                idOwner = device.name();
            } else if (!id.equals(chain.id())) {
                throw new ConfigurationException("devices '" + idOwner + "' and '" + device.name() + "' belong to"
                        + " different tiered volumes: pass the devices of one volume");
            }
            recorded[i] = chain;
        }
        requireOrder(devices, recorded);
        return id;
    }

    private static void requireOrder(List<BlockDevice> devices, TierChain[] recorded) {
        int n = devices.size();
        List<String> moved = new ArrayList<>();
        BlockDevice[] original = new BlockDevice[n];
        boolean complete = true;
        for (int i = 0; i < n; i++) {
            if (recorded[i] == null) {
                complete = false;
                continue;
            }
            original[recorded[i].position()] = devices.get(i);
            if (recorded[i].position() != i) {
                moved.add("'" + devices.get(i).name() + "' was given as device " + (i + 1) + " but is "
                        + recorded[i].describe());
            }
        }
        if (moved.isEmpty()) {
            return;
        }
        StringBuilder message = new StringBuilder("the devices are not in the order the tiered volume was created"
                + " with (fastest first): ").append(String.join("; ", moved));
        if (complete && !java.util.Arrays.asList(original).contains(null)) { // two devices claiming one position: no order to offer
            List<String> names = new ArrayList<>();
            for (BlockDevice d : original) {
                names.add("'" + d.name() + "'");
            }
            message.append(": pass them as [").append(String.join(", ", names)).append(']');
        } else {
            message.append(": pass them in the order they were created in");
        }
        throw new ConfigurationException(message.toString());
    }
}
