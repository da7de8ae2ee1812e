package io.most.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.most.cache.CacheConfig;
import io.most.cache.MostCache;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.cache.Cache;
import org.springframework.cache.interceptor.SimpleKey;
import org.springframework.core.serializer.DefaultDeserializer;
import org.springframework.core.serializer.DefaultSerializer;

/** The Spring cache contract on a real MOST cache in a temporary directory. */
class MostSpringCacheTest {
    @TempDir
    Path dir;

    private MostCache engine;
    private MostSpringCache cache;

    @BeforeEach
    void open() {
        engine = MostCache.open(CacheConfig.builder().directory(dir).dramBytes(256 << 10).smallItemBytes(1 << 20)
                .largeItemBytes(2 << 20).build());
        cache = new MostSpringCache("test", engine, true, new DefaultSerializer(), new DefaultDeserializer());
    }

    @AfterEach
    void close() {
        engine.close();
    }

    @Test
    void putThenGetByAnEqualKey() {
        cache.put(new SimpleKey("a", 1), "value"); // the key of a @Cacheable method of two parameters
        assertThat(cache.get(new SimpleKey("a", 1), String.class)).isEqualTo("value");
        assertThat(cache.get("other")).isNull();
        assertThat(cache.getName()).isEqualTo("test");
        assertThat(cache.getNativeCache()).isSameAs(engine);
    }

    @Test
    void nullValuesAreCachedAsNullNotAsMisses() {
        cache.put("k", null);
        Cache.ValueWrapper wrapper = cache.get("k");
        assertThat(wrapper).isNotNull();
        assertThat(wrapper.get()).isNull();
    }

    @Test
    void nullValuesAreRefusedWhenNotAllowed() {
        MostSpringCache strict = new MostSpringCache("strict", engine, false, new DefaultSerializer(),
                new DefaultDeserializer());
        assertThatThrownBy(() -> strict.put("k", null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void getWithLoaderLoadsOnceThenServesTheCache() {
        AtomicInteger loads = new AtomicInteger();
        assertThat(cache.get("k", () -> "v" + loads.incrementAndGet())).isEqualTo("v1");
        assertThat(cache.get("k", () -> "v" + loads.incrementAndGet())).isEqualTo("v1");
        assertThat(loads).hasValue(1);
    }

    @Test
    void concurrentLoadersOfOneKeyRunOnce() throws Exception {
        AtomicInteger loads = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        List<Object> results = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < 4; i++) {
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                results.add(cache.get("shared", () -> "load-" + loads.incrementAndGet()));
            }));
        }
        start.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertThat(loads).hasValue(1);
        assertThat(results).containsOnly("load-1").hasSize(4);
    }

    @Test
    void loaderFailureIsWrappedAndNothingIsCached() {
        assertThatThrownBy(() -> cache.get("k", () -> {
            throw new java.io.IOException("backend down");
        })).isInstanceOf(Cache.ValueRetrievalException.class).hasRootCauseMessage("backend down");
        assertThat(cache.get("k")).isNull();
    }

    @Test
    void putIfAbsentKeepsTheFirstValue() {
        assertThat(cache.putIfAbsent("k", "first")).isNull();
        assertThat(cache.putIfAbsent("k", "second").get()).isEqualTo("first");
        assertThat(cache.get("k", String.class)).isEqualTo("first");
    }

    @Test
    void evictIfPresentSaysWhetherItRemoved() {
        cache.put("k", "v");
        assertThat(cache.evictIfPresent("k")).isTrue();
        assertThat(cache.evictIfPresent("k")).isFalse();
        cache.put("k", "v");
        cache.evict("k");
        assertThat(cache.get("k")).isNull();
    }

    @Test
    void invalidateSaysWhetherThereWereEntries() {
        assertThat(cache.invalidate()).isFalse();
        cache.put("a", 1);
        cache.put("b", 2);
        assertThat(cache.invalidate()).isTrue();
        assertThat(cache.get("a")).isNull();
        cache.put("c", 3);
        cache.clear();
        assertThat(cache.get("c")).isNull();
    }

    @Test
    void retrieveIsNullOnAMissAndAWrapperOnAHit() {
        assertThat(cache.retrieve("k")).isNull();
        cache.put("k", "v");
        assertThat(cache.retrieve("k").join()).isInstanceOfSatisfying(Cache.ValueWrapper.class,
                w -> assertThat(w.get()).isEqualTo("v"));
        cache.put("n", null);
        assertThat(cache.retrieve("n").join()).isInstanceOfSatisfying(Cache.ValueWrapper.class,
                w -> assertThat(w.get()).isNull());
    }

    @Test
    void retrieveWithLoaderStoresWhatTheFutureCompletesWith() {
        AtomicInteger loads = new AtomicInteger();
        CompletableFuture<String> first = cache.retrieve("k",
                () -> CompletableFuture.supplyAsync(() -> "v" + loads.incrementAndGet()));
        assertThat(first.join()).isEqualTo("v1");
        CompletableFuture<String> second = cache.retrieve("k",
                () -> CompletableFuture.completedFuture("v" + loads.incrementAndGet()));
        assertThat(second.join()).isEqualTo("v1");
        assertThat(loads).hasValue(1);
    }

    @Test
    void valueThatIsNotSerializableIsRefusedByName() {
        assertThatThrownBy(() -> cache.put("k", new Object())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cache 'test' cannot serialize a value of java.lang.Object");
    }

    @Test
    void entryThatNoLongerDeserializesIsAMissAndIsDropped() throws Exception {
        cache.put("k", "v");
        MostSpringCache broken = new MostSpringCache("test", engine, true, new DefaultSerializer(), in -> {
            throw new java.io.InvalidClassException("io.example.Gone", "class changed");
        });
        assertThat(broken.get("k")).isNull();
        assertThat(cache.get("k")).isNull();
    }
}
