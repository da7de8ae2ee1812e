package io.most.bench.workload.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.Vector;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.Utils;
import site.ycsb.generator.CounterGenerator;
import site.ycsb.generator.ScrambledZipfianGenerator;
import site.ycsb.generator.SkewedLatestGenerator;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

/**
 * The YCSB generators of the {@code ycsb-*} workloads against YCSB 0.17's own (site.ycsb:core, test
 * scope): the same key names, and the same distributions of items, of offsets from the latest insert
 * and of operations, within sampling tolerance (YCSB draws from ThreadLocalRandom, so streams cannot
 * be compared draw by draw).
 */
class YcsbGeneratorsTest {
    private static final int DRAWS = 1_000_000;
    /** Few items, so that the sampling noise of the total variation distance stays near 0.01. */
    private static final int ITEMS = 200;

    static {
        // CoreWorkload's field initializer asks for the measurements, which need properties first
        Measurements.setProperties(new Properties());
    }

    @Test
    void keyNamesAreCoreWorkloadsHashedNames() {
        KeyNames ycsb = new KeyNames();
        for (long k : new long[] {0, 1, 2, 41, 1000, 123_456_789, Integer.MAX_VALUE}) {
            assertEquals(ycsb.buildKeyName(k), YcsbKeys.name(k));
            assertEquals(Utils.fnvhash64(k), YcsbKeys.fnvhash64(k));
        }
        assertTrue(YcsbKeys.name(0).length() <= YcsbKeys.MAX_KEY_LENGTH);
        long longest = 0;
        for (long k = 0; k < 100_000; k++) {
            longest = Math.max(longest, YcsbKeys.name(k).length());
        }
        assertTrue(longest <= YcsbKeys.MAX_KEY_LENGTH, "longest key " + longest);
    }

    @Test
    void scrambledZipfianHasYcsbsItemFrequencies() {
        int items = ITEMS;
        ScrambledZipfianGenerator ycsb = new ScrambledZipfianGenerator(0, items - 1);
        ScrambledZipfian ours = ScrambledZipfian.ycsb(items);
        SplittableRandom random = new SplittableRandom(1);
        double[] theirs = frequencies(items, () -> ycsb.nextValue());
        double[] mine = frequencies(items, () -> ours.next(random));
        // the same item is the most popular, with the same share (~3.9% = 1/zeta(10^10) plus collisions)
        assertEquals(argMax(theirs), argMax(mine));
        assertEquals(theirs[argMax(theirs)], mine[argMax(mine)], 0.002);
        assertTrue(totalVariation(theirs, mine) < 0.03, "total variation " + totalVariation(theirs, mine));
        // and the rank-0 item is where YCSB's hash puts it
        assertEquals(Utils.fnvhash64(0) % items, ours.itemOfRank(0));
    }

    @Test
    void zipfianRanksUseYcsbsZetaConstant() {
        // YCSB's rank 0 has probability 1/ZETAN whatever the item count
        ScrambledZipfian ours = ScrambledZipfian.ycsb(10);
        SplittableRandom random = new SplittableRandom(2);
        long zeros = 0;
        for (int i = 0; i < DRAWS; i++) {
            if (ours.nextRank(random) == 0) {
                zeros++;
            }
        }
        assertEquals(1 / ScrambledZipfian.YCSB_ZETAN, zeros / (double) DRAWS, 0.001);
    }

    @Test
    void latestHasYcsbsOffsetsFromTheLastInsert() {
        int records = ITEMS;
        CounterGenerator basis = new CounterGenerator(records);
        SkewedLatestGenerator ycsb = new SkewedLatestGenerator(basis);
        SkewedLatest ours = new SkewedLatest(records - 1);
        SplittableRandom random = new SplittableRandom(3);
        long limit = basis.lastValue();
        assertEquals(records - 1, limit);
        double[] theirs = frequencies(records, () -> basis.lastValue() - ycsb.nextValue());
        double[] mine = frequencies(records, () -> limit - ours.next(limit, random));
        assertEquals(theirs[0], mine[0], 0.003);
        assertEquals(theirs[1], mine[1], 0.003);
        assertTrue(totalVariation(theirs, mine) < 0.03, "total variation " + totalVariation(theirs, mine));

        // after as many inserts again the zeta grows incrementally (and eta keeps YCSB's original item count)
        for (int i = 0; i < records; i++) {
            basis.nextValue();
        }
        long grown = basis.lastValue();
        assertEquals(2L * records - 1, grown);
        double[] theirsGrown = frequencies(2 * records, () -> basis.lastValue() - ycsb.nextValue());
        double[] mineGrown = frequencies(2 * records, () -> grown - ours.next(grown, random));
        assertEquals(theirsGrown[0], mineGrown[0], 0.003);
        assertTrue(totalVariation(theirsGrown, mineGrown) < 0.03);
    }

    @Test
    void operationMixesMatchCoreWorkloadsChooser() throws Exception {
        for (YcsbMix mix : YcsbMix.core()) {
            Properties p = coreProperties(mix, 1000);
            CoreWorkload workload = new CoreWorkload();
            workload.init(p);
            CountingDb db = new CountingDb();
            int ops = 200_000;
            for (int i = 0; i < ops; i++) {
                workload.doTransaction(db, null);
            }
            Map<YcsbOperation, Long> ours = new EnumMap<>(YcsbOperation.class);
            SplittableRandom random = new SplittableRandom(4);
            for (int i = 0; i < ops; i++) {
                ours.merge(mix.nextOperation(random), 1L, Long::sum);
            }
            for (YcsbOperation op : YcsbOperation.values()) {
                double expected = mix.proportion(op);
                assertEquals(expected, ours.getOrDefault(op, 0L) / (double) ops, 0.006, mix.letter() + " " + op);
            }
            // a read-modify-write reaches a database as a read and an update of the same key
            double rmw = mix.proportion(YcsbOperation.READ_MODIFY_WRITE);
            assertEquals(mix.proportion(YcsbOperation.READ) + rmw, db.share(YcsbOperation.READ, ops), 0.006);
            assertEquals(mix.proportion(YcsbOperation.UPDATE) + rmw, db.share(YcsbOperation.UPDATE, ops), 0.006);
            assertEquals(mix.proportion(YcsbOperation.INSERT), db.share(YcsbOperation.INSERT, ops), 0.006);
            assertEquals(mix.proportion(YcsbOperation.SCAN), db.share(YcsbOperation.SCAN, ops), 0.006);
        }
    }

    @Test
    void requestKeysOfWorkloadCMatchCoreWorkloads() throws Exception {
        int records = ITEMS;
        CoreWorkload workload = new CoreWorkload();
        workload.init(coreProperties(YcsbMix.core()[2], records));
        CountingDb db = new CountingDb();
        Map<String, Integer> index = new HashMap<>();
        for (int k = 0; k < records; k++) {
            index.put(YcsbKeys.name(k), k);
        }
        double[] theirs = frequencies(records, () -> {
            workload.doTransaction(db, null);
            return index.get(db.lastKey);
        });
        YcsbKeyChooser chooser = new YcsbKeyChooser(YcsbMix.core()[2], records, new InsertSequence(records));
        SplittableRandom random = new SplittableRandom(5);
        double[] mine = frequencies(records, () -> chooser.next(random));
        assertEquals(argMax(theirs), argMax(mine));
        assertTrue(totalVariation(theirs, mine) < 0.03, "total variation " + totalVariation(theirs, mine));
    }

    @Test
    void insertSequenceAcknowledgesInOrderOnly() {
        InsertSequence inserts = new InsertSequence(10);
        assertEquals(9, inserts.limit());
        long a = inserts.next();
        long b = inserts.next();
        assertEquals(10, a);
        inserts.acknowledge(b); // the later insert finished first: readers must not see 11 yet
        assertEquals(9, inserts.limit());
        inserts.acknowledge(a);
        assertEquals(11, inserts.limit());
        assertEquals(12, inserts.issued());
    }

    private static Properties coreProperties(YcsbMix mix, int records) {
        Measurements.setProperties(new Properties());
        Properties p = new Properties();
        p.setProperty("recordcount", Integer.toString(records));
        p.setProperty("operationcount", Integer.toString(records)); // expectednewkeys as ours assume
        p.setProperty("readproportion", Double.toString(mix.proportion(YcsbOperation.READ)));
        p.setProperty("updateproportion", Double.toString(mix.proportion(YcsbOperation.UPDATE)));
        p.setProperty("insertproportion", Double.toString(mix.proportion(YcsbOperation.INSERT)));
        p.setProperty("scanproportion", Double.toString(mix.proportion(YcsbOperation.SCAN)));
        p.setProperty("readmodifywriteproportion", Double.toString(mix.proportion(YcsbOperation.READ_MODIFY_WRITE)));
        p.setProperty("requestdistribution", mix.distribution().name().toLowerCase(java.util.Locale.ROOT));
        p.setProperty("maxscanlength", Integer.toString(mix.maxScanLength()));
        return p;
    }

    private static double[] frequencies(int items, LongSupplier draw) {
        double[] f = new double[items];
        for (int i = 0; i < DRAWS; i++) {
            f[(int) draw.getAsLong()] += 1.0 / DRAWS;
        }
        return f;
    }

    private static int argMax(double[] f) {
        int best = 0;
        for (int i = 1; i < f.length; i++) {
            if (f[i] > f[best]) {
                best = i;
            }
        }
        return best;
    }

    private static double totalVariation(double[] a, double[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += Math.abs(a[i] - b[i]);
        }
        return sum / 2;
    }

    /** Opens CoreWorkload's protected key naming. */
    private static final class KeyNames extends CoreWorkload {
        KeyNames() {
            try {
                init(coreProperties(YcsbMix.core()[2], 10));
            } catch (site.ycsb.WorkloadException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public String buildKeyName(long keynum) {
            return super.buildKeyName(keynum);
        }
    }

    /** Counts the calls CoreWorkload makes of a database; remembers the last key. */
    private static final class CountingDb extends DB {
        private final Map<YcsbOperation, Long> counts = new EnumMap<>(YcsbOperation.class);
        private String lastKey;

        double share(YcsbOperation op, int ops) {
            return counts.getOrDefault(op, 0L) / (double) ops;
        }

        private Status count(YcsbOperation op, String key) {
            counts.merge(op, 1L, Long::sum);
            lastKey = key;
            return Status.OK;
        }

        @Override
        public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
            return count(YcsbOperation.READ, key);
        }

        @Override
        public Status scan(String table, String startkey, int recordcount, Set<String> fields,
                           Vector<HashMap<String, ByteIterator>> result) {
            assertTrue(recordcount >= 1 && recordcount <= 100, "scan length " + recordcount);
            return count(YcsbOperation.SCAN, startkey);
        }

        @Override
        public Status update(String table, String key, Map<String, ByteIterator> values) {
            assertEquals(1, values.size(), "YCSB updates one field");
            return count(YcsbOperation.UPDATE, key);
        }

        @Override
        public Status insert(String table, String key, Map<String, ByteIterator> values) {
            assertEquals(10, values.size(), "YCSB inserts every field");
            return count(YcsbOperation.INSERT, key);
        }

        @Override
        public Status delete(String table, String key) {
            throw new UnsupportedOperationException("core workloads delete nothing");
        }
    }
}
