package io.most.examples.oltp.ycsb;

import io.most.kv.KeyValue;
import io.most.kv.KvDatabase;
import io.most.kv.KvOptions;
import io.most.kv.Transaction;
import io.most.kv.TransactionConflictException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * A YCSB binding of the OLTP example: YCSB's own client ({@code site.ycsb.Client}) and workload files
 * drive a {@link KvDatabase}. A record is one value: its fields encoded as
 * {@code count, (name length, name, value length, value)*} (big-endian ints); the table name is
 * ignored (one tree). Updates merge the given fields into the record in one transaction.
 *
 * <p>One database per JVM, shared by YCSB's client threads (each thread gets its own binding
 * instance; the first to {@link #init} opens the database, the last to {@link #cleanup} closes it).
 * Properties:
 * <ul>
 *   <li>{@code most.dir} (required): the database directory;</li>
 *   <li>{@code most.dram} (bytes, default 64 MiB), {@code most.pm} (bytes of a PM pool in the directory,
 *       default 0), {@code most.device} (bytes of the data file, default 4 GiB);</li>
 *   <li>{@code most.synccommit} (default true): false commits without forcing the log;</li>
 *   <li>{@code most.pagesize} (bytes, default 16 KiB) and {@code most.maxkey} (the longest key of a new
 *       database, default a sixteenth of the page): with 4 KiB pages, YCSB's records of 10 fields of
 *       100 bytes (1,144 bytes encoded) need a key bound of at most 84 bytes (YCSB's keys have 23).</li>
 * </ul>
 */
public final class MostOltpDb extends DB {
    private static final int UPDATE_ATTEMPTS = 16;
    private static final Object SHARED_LOCK = new Object();
    private static KvDatabase shared;
    private static int users;

    private KvDatabase db;

    @Override
    public void init() throws DBException {
        Properties p = getProperties();
        String dir = p.getProperty("most.dir");
        if (dir == null) {
            throw new DBException("set -p most.dir=<database directory>");
        }
        synchronized (SHARED_LOCK) {
            if (shared == null) {
                try {
                    KvOptions.Builder options = KvOptions.inDirectory(Path.of(dir))
                            .dramBytes(Long.parseLong(p.getProperty("most.dram", String.valueOf(64L << 20))))
                            .pmBytes(Long.parseLong(p.getProperty("most.pm", "0")))
                            .deviceBytes(Long.parseLong(p.getProperty("most.device", String.valueOf(4L << 30))))
                            .syncCommit(Boolean.parseBoolean(p.getProperty("most.synccommit", "true")));
                    if (p.getProperty("most.pagesize") != null) {
                        options.pageSize(Integer.parseInt(p.getProperty("most.pagesize")));
                    }
                    if (p.getProperty("most.maxkey") != null) {
                        options.maxKeySize(Integer.parseInt(p.getProperty("most.maxkey")));
                    }
                    shared = KvDatabase.open(options.build());
                } catch (RuntimeException e) {
                    throw new DBException("cannot open the database in " + dir + ": " + e.getMessage(), e);
                }
            }
            users++;
            db = shared;
        }
    }

    @Override
    public void cleanup() throws DBException {
        synchronized (SHARED_LOCK) {
            if (db != null && --users == 0) {
                shared.close();
                shared = null;
            }
            db = null;
        }
    }

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
        byte[] value = db.get(bytes(key));
        if (value == null) {
            return Status.NOT_FOUND;
        }
        decode(value, fields, result);
        return Status.OK;
    }

    @Override
    public Status scan(String table, String startKey, int count, Set<String> fields,
                       Vector<HashMap<String, ByteIterator>> result) {
        for (KeyValue kv : db.scan(bytes(startKey), null, count)) {
            HashMap<String, ByteIterator> row = new HashMap<>();
            decode(kv.value(), fields, row);
            result.add(row);
        }
        return Status.OK;
    }

    /**
     * Reads the record and writes it back with {@code values} merged in, in one transaction. Two
     * threads updating one key both hold its shared lock and deadlock on the upgrade; the loser is
     * retried, up to {@value #UPDATE_ATTEMPTS} times.
     */
    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
        for (int attempt = 1; ; attempt++) {
            try {
                return updateOnce(key, values);
            } catch (TransactionConflictException e) {
                if (attempt == UPDATE_ATTEMPTS) {
                    return Status.ERROR;
                }
            }
        }
    }

    private Status updateOnce(String key, Map<String, ByteIterator> values) {
        try (Transaction tx = db.begin()) {
            byte[] old = tx.get(bytes(key));
            if (old == null) {
                return Status.NOT_FOUND;
            }
            Map<String, byte[]> merged = new HashMap<>();
            for (Map.Entry<String, ByteIterator> e : decode(old, null, new HashMap<>()).entrySet()) {
                merged.put(e.getKey(), e.getValue().toArray());
            }
            values.forEach((name, v) -> merged.put(name, v.toArray()));
            tx.put(bytes(key), encode(merged));
            tx.commit();
            return Status.OK;
        }
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
        Map<String, byte[]> fields = new HashMap<>();
        values.forEach((name, v) -> fields.put(name, v.toArray()));
        db.put(bytes(key), encode(fields));
        return Status.OK;
    }

    @Override
    public Status delete(String table, String key) {
        return db.delete(bytes(key)) ? Status.OK : Status.NOT_FOUND;
    }

    static byte[] encode(Map<String, byte[]> fields) {
        int size = Integer.BYTES;
        for (Map.Entry<String, byte[]> e : fields.entrySet()) {
            size += 2 * Integer.BYTES + e.getKey().getBytes(StandardCharsets.UTF_8).length + e.getValue().length;
        }
        ByteBuffer b = ByteBuffer.allocate(size).putInt(fields.size());
        for (Map.Entry<String, byte[]> e : fields.entrySet()) {
            byte[] name = e.getKey().getBytes(StandardCharsets.UTF_8);
            b.putInt(name.length).put(name).putInt(e.getValue().length).put(e.getValue());
        }
        return b.array();
    }

    /** Adds the fields of {@code record} named in {@code wanted} (all if null) to {@code into}. */
    static Map<String, ByteIterator> decode(byte[] record, Set<String> wanted, Map<String, ByteIterator> into) {
        ByteBuffer b = ByteBuffer.wrap(record);
        for (int n = b.getInt(); n > 0; n--) {
            byte[] name = new byte[b.getInt()];
            b.get(name);
            byte[] value = new byte[b.getInt()];
            b.get(value);
            String field = new String(name, StandardCharsets.UTF_8);
            if (wanted == null || wanted.contains(field)) {
                into.put(field, new ByteArrayByteIterator(value));
            }
        }
        return into;
    }

    private static byte[] bytes(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }
}
