package io.most.it;

import io.most.PageStoreConfig;
import io.most.device.DirectFileDevice;
import io.most.kv.KvDatabase;
import io.most.kv.KvOptions;
import java.nio.file.Path;

/**
 * The key-value database of the crash tests, on the file-backed hierarchy: a small DRAM pool, a PM file
 * and an O_DIRECT block-device file, so pages keep moving to PM and the SSD file (and the PM recovery path
 * runs on every reopen); frequent automatic checkpoints, so the log is truncated while writers run.
 * {@link Shape#MAXIMAL} databases bound keys to YCSB's 24 bytes, which lets values reach 1,286 bytes.
 */
final class KvCrashStore {
    static final int PAGE = 4096;
    static final int MAXIMAL_KEY = 24;

    /** The entries a crash test writes: short ones, or keys and values of the largest sizes. */
    enum Shape {
        SMALL, MAXIMAL
    }

    private KvCrashStore() {
    }

    static KvDatabase open(Path dir) {
        return open(dir, Shape.SMALL);
    }

    static KvDatabase open(Path dir, Shape shape) {
        PageStoreConfig.Builder store = PageStoreConfig.builder()
                .pageSize(PAGE)
                .dramBytes(32L * PAGE)
                .pm(dir.resolve("pm.most"), 65L * PAGE)
                .blockDevice(DirectFileDevice.open(dir.resolve("data.most"), 32L << 20));
        KvOptions.Builder options = KvOptions.withStore(store, dir.resolve("wal.log")).checkpointLogBytes(256 << 10);
        if (shape == Shape.MAXIMAL) {
            options.maxKeySize(MAXIMAL_KEY);
        }
        return KvDatabase.open(options.build());
    }
}
