package io.most.it;

import io.most.PageStoreConfig;
import io.most.device.DirectFileDevice;
import io.most.examples.oltp.KvDatabase;
import io.most.examples.oltp.KvOptions;
import java.nio.file.Path;

/**
 * The key-value database of the crash tests, on the file-backed hierarchy: a small DRAM pool, a PM file
 * and an O_DIRECT block-device file, so pages keep moving to PM and the SSD file (and the PM recovery path
 * runs on every reopen); frequent automatic checkpoints, so the log is truncated while writers run.
 */
final class KvCrashStore {
    static final int PAGE = 4096;

    private KvCrashStore() {
    }

    static KvDatabase open(Path dir) {
        PageStoreConfig.Builder store = PageStoreConfig.builder()
                .pageSize(PAGE)
                .dramBytes(32L * PAGE)
                .pm(dir.resolve("pm.most"), 65L * PAGE)
                .blockDevice(DirectFileDevice.open(dir.resolve("data.most"), 32L << 20));
        return KvDatabase.open(KvOptions.withStore(store, dir.resolve("wal.log"))
                .checkpointLogBytes(256 << 10)
                .build());
    }
}
