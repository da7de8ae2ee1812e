package io.most.examples.cacheserver;

import java.nio.file.Files;
import java.nio.file.Path;

/** A MOST server and a real redis-server, both on loopback, for tests that compare them. */
final class SideBySide implements AutoCloseable {
    final CacheServer most;
    final RedisServerProcess redis;

    private SideBySide(CacheServer most, RedisServerProcess redis) {
        this.most = most;
        this.redis = redis;
    }

    /** Starts both, with their files under {@code dir}. */
    static SideBySide start(Path dir) throws Exception {
        Files.createDirectories(dir.resolve("redis"));
        RedisServerProcess redis = RedisServerProcess.start(dir.resolve("redis"));
        try {
            return new SideBySide(TestServers.start(dir.resolve("most")), redis);
        } catch (RuntimeException e) {
            redis.close();
            throw e;
        }
    }

    int mostPort() {
        return most.address().getPort();
    }

    int redisPort() {
        return redis.port();
    }

    @Override
    public void close() throws Exception {
        try {
            most.close();
        } finally {
            redis.close();
        }
    }
}
