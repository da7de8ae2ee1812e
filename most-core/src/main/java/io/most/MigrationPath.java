package io.most;

/** The data flow paths between tiers of Spitfire's Figure 3, as counted in {@link PageStoreStats}. */
public enum MigrationPath {
    /** A page read from the block device into DRAM (bypassing PM). */
    SSD_TO_DRAM,
    /** A page read from the block device into PM. */
    SSD_TO_PM,
    /** A PM-resident page copied into DRAM. */
    PM_TO_DRAM,
    /** A dirty DRAM page written to PM. */
    DRAM_TO_PM,
    /** A dirty DRAM page written to the block device (bypassing PM). */
    DRAM_TO_SSD,
    /** A PM page newer than the block device written back on PM eviction. */
    PM_TO_SSD;

    /** Lower-case name with dashes, for metric tags and JSON: {@code ssd-to-dram}. */
    public String tag() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
