package io.most.it;

import io.most.cache.MostCache;
import java.nio.file.Path;

/**
 * Child of {@link CacheCrashTest}: opens the cache in {@code args[0]} (of {@code args[2]} buckets and a
 * small-item front of {@code args[3]} pages) and runs
 * the rounds of generation {@code args[1]} ({@link CacheCrashWorkload#round}) until it is killed, flushing after
 * each round. Prints {@code READY} once open and {@code FLUSHED <round>} after each flush returned.
 */
public final class CacheWriterMain {
    private CacheWriterMain() {
    }

    public static void main(String[] args) {
        ForkedJvm.exitWhenParentDies();
        Path dir = Path.of(args[0]);
        int generation = Integer.parseInt(args[1]);
        ForkedJvm.LineWriter out = ForkedJvm.lineWriter();
        MostCache cache = MostCache.open(CacheCrashWorkload.config(dir, Integer.parseInt(args[2]),
                Integer.parseInt(args[3])));
        out.println("READY");
        for (int round = 0; ; round++) {
            for (CacheCrashWorkload.Op op : CacheCrashWorkload.round(generation, round)) {
                byte[] key = CacheCrashWorkload.key(op.key());
                if (op.isRemove()) {
                    cache.remove(key);
                } else {
                    cache.put(key, CacheCrashWorkload.value(op.key(), op.version(), op.length()));
                }
            }
            cache.flush();
            out.println("FLUSHED " + round);
        }
    }
}
