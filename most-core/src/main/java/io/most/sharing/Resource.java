package io.most.sharing;

/**
 * A device of a {@link SharedDevices} set that tenants contend for. Each is accounted and throttled
 * separately, because a tenant's share of one says nothing about its share of the other.
 */
public enum Resource {
    /** The shared persistent memory ({@link io.most.device.EmulatedPm}). */
    PM,
    /** The shared block device (flash, or a tiered volume). */
    DEVICE
}
