package io.most.kafka.streams;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.NavigableMap;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;

/**
 * The forked writer of {@link KillNineTest}: applies the deterministic operations {@link #apply} from
 * where the store's last commit left off, commits every {@value #COMMIT_EVERY} operations with the
 * operation's index as the changelog offset, and prints each commit after it returns. It never stops:
 * the test kills it.
 */
public final class CrashingWriterMain {
    static final TopicPartition CHANGELOG = new TopicPartition("crash-changelog", 0);
    static final int COMMIT_EVERY = 5000;
    static final String NAME = "crash";
    /** A small DRAM share and long commit intervals, so dirty pages are written back (journal first) between commits. */
    static final long DRAM = 1L << 20;

    private CrashingWriterMain() {
    }

    public static void main(String[] args) {
        Path stateDir = Path.of(args[0]);
        MostKeyValueStore store = new MostKeyValueStore(NAME);
        StoreContexts.init(store, stateDir, DRAM);
        Long committed = store.committedOffset(CHANGELOG);
        for (long i = committed == null ? 0 : committed + 1; ; i++) {
            apply(i, store, null);
            if (i % COMMIT_EVERY == COMMIT_EVERY - 1) {
                store.commit(Map.of(CHANGELOG, i));
                System.out.println("committed " + i);
                System.out.flush();
            }
        }
    }

    /** Operation {@code i}: a put or (every 11th) a delete of one of 20,000 keys; on the store or the model. */
    static void apply(long i, MostKeyValueStore store, NavigableMap<Bytes, byte[]> model) {
        Bytes key = Bytes.wrap(("key-" + (i * 7919 % 20000)).getBytes(StandardCharsets.US_ASCII));
        byte[] value = i % 11 == 0 ? null : ("value-" + i + "-" + "x".repeat((int) (i % 150))).getBytes(StandardCharsets.US_ASCII);
        if (store != null) {
            store.put(key, value);
        } else if (value == null) {
            model.remove(key);
        } else {
            model.put(key, value);
        }
    }
}
