package io.most.examples.oltp.ycsb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

/**
 * The binding under YCSB's own CoreWorkload (workload A's mix, then E's scans and inserts): every read
 * returns what the workload last wrote, checked against a reference kept by a wrapping DB; the data
 * survives a reopen.
 */
class MostOltpDbTest {
    @TempDir
    Path dir;

    private Properties properties(String mix, String pageSize, String maxKey) {
        Properties p = new Properties();
        p.setProperty("most.dir", dir.toString());
        p.setProperty("most.pagesize", pageSize);
        p.setProperty("most.maxkey", maxKey);
        p.setProperty("most.device", String.valueOf(64L << 20));
        p.setProperty("most.synccommit", "false");
        p.setProperty("recordcount", "400");
        p.setProperty("operationcount", "3000");
        p.setProperty("requestdistribution", "zipfian");
        if (mix.equals("a")) {
            p.setProperty("readproportion", "0.5");
            p.setProperty("updateproportion", "0.5");
        } else {
            p.setProperty("readproportion", "0");
            p.setProperty("scanproportion", "0.95");
            p.setProperty("insertproportion", "0.05");
            p.setProperty("maxscanlength", "20");
            p.setProperty("insertstart", "0");
        }
        p.setProperty("readallfields", "true");
        return p;
    }

    /** With the default 16 KiB pages, and with 4 KiB pages whose key bound leaves room for YCSB's records. */
    @ParameterizedTest(name = "{0}-byte pages, keys up to {1} bytes")
    @CsvSource({"16384, 1022", "4096, 32"})
    void ycsbCoreWorkloadsReadBackWhatTheyWrote(String pageSize, String maxKey) throws Exception {
        Map<String, Map<String, String>> reference = new HashMap<>();
        Properties a = properties("a", pageSize, maxKey);
        Measurements.setProperties(a);
        CheckingDb db = new CheckingDb(a, reference);
        db.init();
        CoreWorkload workload = new CoreWorkload();
        workload.init(a);
        Object state = workload.initThread(a, 0, 1);
        for (int i = 0; i < 400; i++) {
            assertTrue(workload.doInsert(db, state));
        }
        for (int i = 0; i < 3000; i++) {
            assertTrue(workload.doTransaction(db, state), "operation " + i);
        }
        assertTrue(db.reads > 1000 && db.updates > 1000, db.reads + " reads, " + db.updates + " updates");
        db.cleanup();

        Properties e = properties("e", pageSize, maxKey);
        CheckingDb reopened = new CheckingDb(e, reference);
        reopened.init();
        CoreWorkload scans = new CoreWorkload();
        scans.init(e);
        Object scanState = scans.initThread(e, 0, 1);
        for (int i = 0; i < 300; i++) {
            assertTrue(scans.doTransaction(reopened, scanState), "operation " + i);
        }
        assertTrue(reopened.scanned > 0, "scans returned rows");
        for (String key : reference.keySet()) {
            assertEquals(Status.OK, reopened.read("usertable", key, null, new HashMap<>()), key);
        }
        reopened.cleanup();
    }

    @Test
    void aMissingDirectoryPropertyIsANamedError() {
        MostOltpDb db = new MostOltpDb();
        db.setProperties(new Properties());
        DBException e = assertThrows(DBException.class, db::init);
        assertTrue(e.getMessage().contains("most.dir"), e.getMessage());
    }

    @Test
    void recordsEncodeEveryField() {
        Map<String, byte[]> fields = Map.of("field0", new byte[] {1, 2}, "field1", new byte[0]);
        Map<String, ByteIterator> back = MostOltpDb.decode(MostOltpDb.encode(fields), null, new HashMap<>());
        assertEquals(Set.of("field0", "field1"), back.keySet());
        assertArrayEquals(new byte[] {1, 2}, back.get("field0").toArray());
        assertEquals(1, MostOltpDb.decode(MostOltpDb.encode(fields), Set.of("field1"), new HashMap<>()).size());
    }

    /** The binding, checked on every read against the values the workload wrote. */
    private static final class CheckingDb extends DB {
        private final MostOltpDb db = new MostOltpDb();
        private final Map<String, Map<String, String>> reference;
        int reads;
        int updates;
        int scanned;

        CheckingDb(Properties properties, Map<String, Map<String, String>> reference) {
            this.reference = reference;
            db.setProperties(properties);
        }

        @Override
        public void init() throws DBException {
            db.init();
        }

        @Override
        public void cleanup() throws DBException {
            db.cleanup();
        }

        @Override
        public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
            Status s = db.read(table, key, fields, result);
            assertEquals(Status.OK, s, key);
            Map<String, String> expected = reference.get(key);
            assertNotNull(expected, key);
            for (Map.Entry<String, ByteIterator> e : result.entrySet()) {
                assertEquals(expected.get(e.getKey()), new String(e.getValue().toArray()), key + "." + e.getKey());
            }
            assertEquals(fields == null ? expected.size() : fields.size(), result.size(), key);
            reads++;
            return s;
        }

        @Override
        public Status scan(String table, String startKey, int count, Set<String> fields,
                           Vector<HashMap<String, ByteIterator>> result) {
            Status s = db.scan(table, startKey, count, fields, result);
            assertTrue(result.size() <= count);
            scanned += result.size();
            return s;
        }

        @Override
        public Status update(String table, String key, Map<String, ByteIterator> values) {
            Map<String, String> copy = strings(values);
            Status s = db.update(table, key, asIterators(copy));
            reference.get(key).putAll(copy);
            updates++;
            return s;
        }

        @Override
        public Status insert(String table, String key, Map<String, ByteIterator> values) {
            Map<String, String> copy = strings(values);
            reference.put(key, new HashMap<>(copy));
            return db.insert(table, key, asIterators(copy));
        }

        @Override
        public Status delete(String table, String key) {
            reference.remove(key);
            return db.delete(table, key);
        }

        /** YCSB's value iterators can be read once: keep the bytes as strings for the reference. */
        private static Map<String, String> strings(Map<String, ByteIterator> values) {
            Map<String, String> out = new HashMap<>();
            values.forEach((k, v) -> out.put(k, new String(v.toArray())));
            return out;
        }

        private static Map<String, ByteIterator> asIterators(Map<String, String> values) {
            Map<String, ByteIterator> out = new HashMap<>();
            values.forEach((k, v) -> out.put(k, new site.ycsb.ByteArrayByteIterator(v.getBytes())));
            return out;
        }
    }
}
