package io.most.it;

import io.most.MigrationPolicy;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.WalHook;
import io.most.device.DirectFileDevice;
import java.nio.file.Path;
import java.util.List;

/**
 * The store a page-store crash test runs, passed to the child JVM as arguments and rebuilt by the
 * test to reopen the same files with the same configuration.
 *
 * @param hierarchy       {@code eager}, {@code lazy} or {@code hymem} (a DRAM-PM-SSD store with that
 *                        {@link MigrationPolicy#named preset}) or {@code dram-ssd} (no PM)
 * @param pageSize        bytes per page
 * @param pages           pages the writer allocates (the block device holds a few more)
 * @param dramFrames      DRAM pool in pages
 * @param pmFrames        PM pool in pages (0 for {@code dram-ssd})
 * @param durableEvery    the writer makes its pages durable after every this many rounds
 * @param flushOnly       whether it does so with {@code flush()} (else {@code checkpoint()})
 * @param hotPages        size of the hot set that takes most writes and reads
 * @param meanWrites      mean number of pages written per round
 * @param parkAfterRound  if positive, the writer stops after making round {@code parkAfterRound} durable
 *                        (a round that is a multiple of {@code durableEvery}), prints {@code PARKED} and
 *                        waits to be killed: a crash with no store operation in flight
 * @param seed            the writer's schedule and the pages' run id
 */
record CrashStoreSpec(String hierarchy, int pageSize, int pages, int dramFrames, int pmFrames, int durableEvery,
                      boolean flushOnly, int hotPages, int meanWrites, int parkAfterRound, long seed) {

    /** Spare page ids on the block device beyond those the writer allocates. */
    static final int SPARE_PAGES = 4;

    static final String SSD_FILE = "ssd.dat";
    static final String PM_FILE = "pm.dat";
    static final String WAL_FILE = "wal.lsn";

    boolean hasPm() {
        return !hierarchy.equals("dram-ssd");
    }

    MigrationPolicy policy() {
        return hasPm() ? MigrationPolicy.named(hierarchy) : MigrationPolicy.lazy();
    }

    /** The configuration over {@code dir}: the same in the writer and in the test that reopens. */
    PageStoreConfig config(Path dir, WalHook walHook) {
        PageStoreConfig.Builder b = PageStoreConfig.builder()
                .pageSize(pageSize)
                .blockDevice(DirectFileDevice.open(dir.resolve(SSD_FILE),
                        PageStore.blockDeviceBytesFor(pages + SPARE_PAGES, pageSize)))
                .dramBytes((long) dramFrames * pageSize)
                .policy(policy())
                .walHook(walHook);
        if (hasPm()) {
            b.pm(dir.resolve(PM_FILE), (long) (pmFrames + 1) * pageSize);
        }
        return b.build();
    }

    WriteSchedule schedule() {
        return new WriteSchedule(seed, pages, hotPages, meanWrites);
    }

    List<String> toArgs(Path dir) {
        return List.of(dir.toString(), hierarchy, Integer.toString(pageSize), Integer.toString(pages),
                Integer.toString(dramFrames), Integer.toString(pmFrames), Integer.toString(durableEvery),
                Boolean.toString(flushOnly), Integer.toString(hotPages), Integer.toString(meanWrites),
                Integer.toString(parkAfterRound), Long.toString(seed));
    }

    /** Parses {@link #toArgs} from {@code args[1..]} ({@code args[0]} is the directory). */
    static CrashStoreSpec fromArgs(String[] args) {
        return new CrashStoreSpec(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]),
                Integer.parseInt(args[4]), Integer.parseInt(args[5]), Integer.parseInt(args[6]),
                Boolean.parseBoolean(args[7]), Integer.parseInt(args[8]), Integer.parseInt(args[9]),
                Integer.parseInt(args[10]), Long.parseLong(args[11]));
    }

    @Override
    public String toString() {
        return hierarchy + ", " + pageSize / 1024 + " KiB pages, " + pages + " pages, DRAM " + dramFrames
                + (hasPm() ? ", PM " + pmFrames : "") + " frames, " + (flushOnly ? "flush" : "checkpoint")
                + " every " + durableEvery + " rounds, ~" + meanWrites + " writes per round (hot set " + hotPages
                + ")" + (parkAfterRound > 0 ? ", parks after round " + parkAfterRound : "") + ", seed " + seed;
    }
}
