package io.most.kafka.streams;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Properties;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;

/**
 * The forked writer of {@link KillNineTest}: applies the deterministic operations {@link #apply} from
 * where the store's last checkpoint left off, commits every {@code commitEvery} operations with the
 * operation's index as the changelog offset, and prints each commit after it returns ({@code committed
 * i}), then, if the commit checkpointed, {@code durable i}. Arguments: state directory, operations per
 * commit, {@value MostStreamsConfig#CHECKPOINT_INTERVAL_MS}, {@value MostStreamsConfig#CHECKPOINT_BYTES}.
 * It never stops: the test kills it.
 */
public final class CrashingWriterMain {
    static final TopicPartition CHANGELOG = new TopicPartition("crash-changelog", 0);
    static final String NAME = "crash";
    /** A small DRAM share, so dirty pages are written back (journal first) between checkpoints. */
    static final long DRAM = 1L << 20;

    private CrashingWriterMain() {
    }

    /** The store's settings: {@link StoreContexts#props} with this checkpoint policy. */
    static Properties props(Path stateDir, long intervalMs, long checkpointBytes) {
        Properties p = StoreContexts.props(stateDir, DRAM);
        p.put(MostStreamsConfig.CHECKPOINT_INTERVAL_MS, Long.toString(intervalMs));
        p.put(MostStreamsConfig.CHECKPOINT_BYTES, Long.toString(checkpointBytes));
        return p;
    }

    public static void main(String[] args) {
        Path stateDir = Path.of(args[0]);
        int commitEvery = Integer.parseInt(args[1]);
        MostKeyValueStore store = new MostKeyValueStore(NAME);
        StoreContexts.init(store, props(stateDir, Long.parseLong(args[2]), Long.parseLong(args[3])), stateDir);
        Long durable = store.committedOffset(CHANGELOG);
        for (long i = durable == null ? 0 : durable + 1; ; i++) {
            apply(i, store, null);
            if (i % commitEvery == commitEvery - 1) {
                store.commit(Map.of(CHANGELOG, i));
                System.out.println("committed " + i);
                Long now = store.committedOffset(CHANGELOG);
                if (!Objects.equals(now, durable)) {
                    durable = now;
                    System.out.println("durable " + now);
                }
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
