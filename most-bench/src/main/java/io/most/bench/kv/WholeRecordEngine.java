package io.most.bench.kv;

import java.util.Map;

/**
 * A {@link KvEngine} over a store of whole values: implement {@link #get}, {@link #put} and
 * {@link #scan}; updates read the value, change the bytes and put it back (what YCSB's bindings of
 * such stores do), under a striped lock so that concurrent updates of one key do not lose a write.
 */
abstract class WholeRecordEngine implements KvEngine {
    private static final int LOCK_STRIPES = 1024;

    private final Object[] locks = new Object[LOCK_STRIPES];

    protected WholeRecordEngine() {
        for (int i = 0; i < LOCK_STRIPES; i++) {
            locks[i] = new Object();
        }
    }

    /** The stored value of {@code key}, or null. */
    protected abstract byte[] get(String key);

    /** Stores {@code value} (the engine may keep the array) under {@code key}, replacing any. */
    protected abstract void put(String key, byte[] value);

    @Override
    public void load(KvDataset data) {
        for (long i = 0; i < data.records(); i++) {
            byte[] value = new byte[data.format().recordBytes()];
            data.value(i, value);
            put(data.key(i), value);
            loaded(i + 1);
        }
    }

    /** Called by {@link #load} after each of the first {@code records} records is put; does nothing here. */
    protected void loaded(long records) {
    }

    @Override
    public boolean read(String key, byte[] into) {
        byte[] value = get(key);
        if (value == null) {
            return false;
        }
        System.arraycopy(value, 0, into, 0, Math.min(into.length, value.length));
        return true;
    }

    @Override
    public boolean update(String key, int offset, byte[] bytes) {
        synchronized (lockOf(key)) {
            byte[] value = get(key);
            if (value == null) {
                return false;
            }
            byte[] changed = value.clone(); // a store may hand out its own array: never change it in place
            System.arraycopy(bytes, 0, changed, offset, bytes.length);
            put(key, changed);
            return true;
        }
    }

    @Override
    public void insert(String key, byte[] record) {
        put(key, record.clone());
    }

    @Override
    public boolean readModifyWrite(String key, byte[] into, int offset, byte[] bytes) {
        synchronized (lockOf(key)) {
            return read(key, into) && update(key, offset, bytes);
        }
    }

    private Object lockOf(String key) {
        return locks[(key.hashCode() & 0x7fffffff) % LOCK_STRIPES];
    }

    @Override
    public abstract Map<String, Object> describe();
}
