package org.example.consumer;

import io.most.Page;
import io.most.PageStore;
import io.most.cache.CacheConfig;
import io.most.cache.MostCache;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What a user of the published artifacts does first: the starter's {@link PageStore} bean and a
 * {@code @Cacheable} method on MOST's cache manager, across a restart of the application, and the cache
 * API without Spring. Each check throws when it fails, so the JVM exits non-zero and the build with it.
 */
@SpringBootApplication
@EnableCaching
public class ConsumerApplication {
    private static final long MARKER = 0x4d4f53545f4f4bL;

    /** Runs every check in a new directory under {@code args[0]}. */
    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: ConsumerApplication DATA_PARENT_DIRECTORY");
        }
        Path parent = Files.createDirectories(Path.of(args[0]));
        Path directory = Files.createTempDirectory(parent, "run-");

        long pageId;
        try (ConfigurableApplicationContext context = start(directory)) {
            PageStore store = context.getBean(PageStore.class);
            pageId = store.allocate();
            try (Page page = store.write(pageId)) {
                page.payload().set(ValueLayout.JAVA_LONG, 0, MARKER);
                page.markDirty(0);
            }
            SlowSquares squares = context.getBean(SlowSquares.class);
            check(squares.square(12) == 144 && squares.square(12) == 144, "square(12) is not 144");
            check(squares.computed() == 1, "the second square(12) was not a cache hit: computed "
                    + squares.computed() + " times");
        }
        // closing the context checkpointed the store and closed the caches: a restart finds both
        try (ConfigurableApplicationContext context = start(directory)) {
            PageStore store = context.getBean(PageStore.class);
            try (Page page = store.read(pageId)) {
                long read = page.payload().get(ValueLayout.JAVA_LONG, 0);
                check(read == MARKER, "page " + pageId + " holds " + Long.toHexString(read) + " after a restart");
            }
            SlowSquares squares = context.getBean(SlowSquares.class);
            check(squares.square(12) == 144 && squares.computed() == 0,
                    "square(12) was not served by the cache after a restart");
        }

        CacheConfig config = CacheConfig.builder()
                .directory(directory.resolve("direct"))
                .dramBytes(1L << 20)
                .smallItemBytes(4L << 20)
                .largeItemBytes(0)
                .build();
        byte[] key = "greeting".getBytes(StandardCharsets.UTF_8);
        byte[] value = "hello from a MOST cache".getBytes(StandardCharsets.UTF_8);
        try (MostCache cache = MostCache.open(config)) {
            cache.put(key, value);
            check(Arrays.equals(cache.get(key), value), "MostCache.get did not return what put wrote");
        }
        System.out.println("most-consumer: page store, Spring cache and MostCache work from the published artifacts");
    }

    private static ConfigurableApplicationContext start(Path directory) {
        return SpringApplication.run(ConsumerApplication.class, "--most.store.directory=" + directory);
    }

    private static void check(boolean condition, String failure) {
        if (!condition) {
            throw new IllegalStateException("most-consumer: " + failure);
        }
    }
}
