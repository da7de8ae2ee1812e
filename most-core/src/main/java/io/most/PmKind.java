package io.most;

/**
 * What the byte-addressable tier between DRAM and the block device is ({@link PageStoreConfig#pmKind()}).
 * Both kinds run Spitfire's migration policy {@code <Dr, Dw, Nr, Nw>} and the same PM replacement; they
 * differ in what survives a crash.
 */
public enum PmKind {
    /**
     * Persistent memory: a mapped file (on a DAX file system for real PM, anywhere for an emulation),
     * written under the persistence protocol (sealed frames, redo records, delta frames) and recovered
     * at open. A page written to it is durable there; the block device depends on the file.
     */
    PERSISTENT,
    /**
     * Volatile far memory: a NUMA node's memory (CXL-attached memory is a node without CPUs) bound with
     * {@code mbind}, or a device-DAX device. Nothing is persisted or recovered: its dirty pages are
     * dirty as DRAM's are, written back to the block device before they are dropped and on
     * checkpoint, and lost with the process otherwise.
     */
    FAR_MEMORY
}
