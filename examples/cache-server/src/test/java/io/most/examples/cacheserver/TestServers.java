package io.most.examples.cacheserver;

import java.nio.file.Path;

/** MOST servers for tests: on a free loopback port, with small tiers so that they start quickly. */
final class TestServers {

    private TestServers() {
    }

    /** Settings of a small test server keeping its cache in {@code dir}. */
    static ServerSettings.Builder small(Path dir) {
        return ServerSettings.builder(dir).port(0).dramBytes(4L << 20).ssdBytes(16L << 20).regionBytes(8L << 20)
                .maxBulkBytes(64 << 20).threads(2);
    }

    /** A started small test server. */
    static CacheServer start(Path dir) {
        return CacheServer.start(small(dir).build());
    }
}
