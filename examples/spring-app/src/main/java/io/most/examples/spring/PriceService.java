package io.most.examples.spring;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Service;

/**
 * Prices products, slowly on purpose: it stands for a remote pricing system or an expensive query,
 * the kind of call an application caches. Prices are cached with {@code @Cacheable} in the MOST
 * cache {@code prices} (see {@code application.yml}), so only the first call for a SKU is slow. Counts
 * its invocations so that callers (and tests) can see how often it really ran.
 */
@Service
public class PriceService {
    private final Duration delay;
    private final AtomicLong invocations = new AtomicLong();

    /** @param delay how long each pricing takes ({@code app.price-delay}) */
    public PriceService(@Value("${app.price-delay:500ms}") Duration delay) {
        this.delay = delay;
    }

    /** The price of {@code sku} in cents: a deterministic function of the SKU, after the delay. */
    @Cacheable("prices")
    public long priceCents(String sku) {
        invocations.incrementAndGet();
        try {
            Thread.sleep(delay);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while pricing " + sku, e);
        }
        CRC32 crc = new CRC32();
        crc.update(sku.getBytes(StandardCharsets.UTF_8));
        return 100 + crc.getValue() % 99_900; // between 1.00 and 999.99
    }

    /** How many times {@link #priceCents} really ran (cache hits do not run it). */
    public long invocations() {
        return invocations.get();
    }
}
