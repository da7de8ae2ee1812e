package io.most.examples.cacheserver.command;

import io.most.cache.MostCache;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiConsumer;

/**
 * Redis hashes over the cache, one cache entry per field, so that reading one field reads that field
 * and the hash's 16-byte header, never the whole hash:
 *
 * <ul>
 *   <li>header {@code 'h' key}: the hash's generation and field count; its lifetime is the hash's;</li>
 *   <li>field {@code 'f' generation keyLength key field}: the field's value;</li>
 *   <li>directory chunk {@code 'd' generation keyLength key chunk}: the names of the fields whose hash
 *       falls in that chunk (one of {@value #CHUNKS}), for HGETALL, HKEYS, HVALS, HSCAN and DEL; a new
 *       field rewrites one chunk, about 1/{@value #CHUNKS} of the names.</li>
 * </ul>
 *
 * A hash created again after it expired gets a new random generation, so the fields and chunks an
 * expired hash left behind are never seen again (the cache evicts them in time); deleting a hash
 * removes them at once. Writers hold the Redis key's lock ({@link Keyspace#locked}); readers take none.
 *
 * <p>As everything in a cache, a field may be evicted under memory pressure on its own: a hash then
 * lacks that field, while {@code HLEN} still counts it until it is deleted.
 */
final class HashStore {
    static final byte HEADER = 'h';
    private static final byte FIELD = 'f';
    private static final byte CHUNK = 'd';
    /** Directory chunks per hash. */
    static final int CHUNKS = 16;

    private final MostCache cache;

    HashStore(MostCache cache) {
        this.cache = cache;
    }

    /** A hash's header: its generation and field count. */
    record Header(long generation, long fields) {
        byte[] bytes() {
            return ByteBuffer.allocate(16).putLong(generation).putLong(fields).array();
        }

        static Header of(byte[] bytes) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            return new Header(b.getLong(), b.getLong());
        }
    }

    /** The header of hash {@code key}, null if there is no such hash. */
    Header header(byte[] key) {
        byte[] h = cache.get(headerKey(key));
        return h == null ? null : Header.of(h);
    }

    /** The value of {@code field}, null if absent. */
    byte[] get(Header header, byte[] key, byte[] field) {
        return cache.get(fieldKey(header.generation(), key, field));
    }

    /**
     * Sets {@code field} to {@code value}, creating the hash if needed; returns whether the field is new.
     * Call holding the key's lock.
     */
    boolean put(byte[] key, byte[] field, byte[] value) {
        Header header = header(key);
        if (header == null) {
            header = new Header(ThreadLocalRandom.current().nextLong(), 0);
        }
        byte[] fk = fieldKey(header.generation(), key, field);
        boolean added = !cache.containsKey(fk);
        cache.put(fk, value);
        if (added) {
            byte[] ck = chunkKey(header.generation(), key, chunkOf(field));
            cache.put(ck, appendName(cache.get(ck), field));
            writeHeader(key, new Header(header.generation(), header.fields() + 1));
        }
        return added;
    }

    /** Removes {@code field}; returns whether it was there. Call holding the key's lock. */
    boolean remove(byte[] key, byte[] field) {
        Header header = header(key);
        if (header == null || !cache.remove(fieldKey(header.generation(), key, field))) {
            return false;
        }
        byte[] ck = chunkKey(header.generation(), key, chunkOf(field));
        List<byte[]> names = names(cache.get(ck));
        names.removeIf(n -> Arrays.equals(n, field));
        if (names.isEmpty()) {
            cache.remove(ck);
        } else {
            cache.put(ck, encodeNames(names));
        }
        if (header.fields() <= 1) {
            cache.remove(headerKey(key)); // Redis deletes a hash with its last field
        } else {
            writeHeader(key, new Header(header.generation(), header.fields() - 1));
        }
        return true;
    }

    /** Removes the whole hash; returns whether it existed. Call holding the key's lock. */
    boolean delete(byte[] key) {
        Header header = header(key);
        if (header == null) {
            return false;
        }
        for (int c = 0; c < CHUNKS; c++) {
            byte[] ck = chunkKey(header.generation(), key, c);
            for (byte[] name : names(cache.get(ck))) {
                cache.remove(fieldKey(header.generation(), key, name));
            }
            cache.remove(ck);
        }
        return cache.remove(headerKey(key));
    }

    /**
     * Gives {@code action} the fields (and values) of the chunks from {@code chunk} on until about
     * {@code count} fields were given; returns the next chunk, 0 when done (HSCAN's cursor). A field
     * stays in its chunk, so one present for the whole walk is given.
     */
    int walk(Header header, byte[] key, int chunk, int count, BiConsumer<byte[], byte[]> action) {
        int given = 0;
        int c = chunk;
        for (; c < CHUNKS && given < count; c++) {
            for (byte[] name : names(cache.get(chunkKey(header.generation(), key, c)))) {
                byte[] value = cache.get(fieldKey(header.generation(), key, name));
                if (value != null) {
                    action.accept(name, value);
                    given++;
                }
            }
        }
        return c >= CHUNKS ? 0 : c;
    }

    /**
     * Moves hash {@code from} (fields and lifetime) to {@code to}, replacing whatever {@code to} held;
     * returns false if {@code from} is no hash. Call holding both keys' locks.
     */
    boolean rename(byte[] from, byte[] to, Keyspace keyspace) {
        Header header = header(from);
        if (header == null) {
            return false;
        }
        if (Arrays.equals(from, to)) {
            return true;
        }
        Duration ttl = timeToLive(from);
        List<byte[][]> fields = new ArrayList<>();
        for (int c = walk(header, from, 0, Integer.MAX_VALUE, (f, v) -> fields.add(new byte[][] {f, v})); c != 0; ) {
            c = walk(header, from, c, Integer.MAX_VALUE, (f, v) -> fields.add(new byte[][] {f, v}));
        }
        keyspace.remove(to);
        for (byte[][] fv : fields) {
            put(to, fv[0], fv[1]);
        }
        if (ttl != null && !ttl.equals(MostCache.FOREVER)) {
            expire(to, ttl);
        }
        delete(from);
        return true;
    }

    /** Sets the hash's lifetime, as the header's; returns whether the hash exists. */
    boolean expire(byte[] key, Duration ttl) {
        return cache.expire(headerKey(key), ttl);
    }

    /** The hash's remaining lifetime ({@link MostCache#timeToLive}), null if there is no such hash. */
    Duration timeToLive(byte[] key) {
        return cache.timeToLive(headerKey(key));
    }

    /** Rewrites the header keeping the hash's lifetime (a new hash has none). */
    private void writeHeader(byte[] key, Header header) {
        byte[] hk = headerKey(key);
        Duration ttl = cache.timeToLive(hk);
        if (ttl == null || ttl.equals(MostCache.FOREVER)) {
            cache.put(hk, header.bytes());
        } else if (!ttl.isZero() && !ttl.isNegative()) {
            cache.put(hk, header.bytes(), ttl);
        }
    }

    static byte[] headerKey(byte[] key) {
        byte[] hk = new byte[key.length + 1];
        hk[0] = HEADER;
        System.arraycopy(key, 0, hk, 1, key.length);
        return hk;
    }

    private static byte[] fieldKey(long generation, byte[] key, byte[] field) {
        return ByteBuffer.allocate(1 + 8 + 4 + key.length + field.length).put(FIELD).putLong(generation)
                .putInt(key.length).put(key).put(field).array();
    }

    private static byte[] chunkKey(long generation, byte[] key, int chunk) {
        return ByteBuffer.allocate(1 + 8 + 4 + key.length + 1).put(CHUNK).putLong(generation).putInt(key.length)
                .put(key).put((byte) chunk).array();
    }

    private static int chunkOf(byte[] field) {
        int h = Arrays.hashCode(field);
        return (h ^ (h >>> 16)) & (CHUNKS - 1);
    }

    private static List<byte[]> names(byte[] chunk) {
        List<byte[]> out = new ArrayList<>();
        if (chunk != null) {
            ByteBuffer b = ByteBuffer.wrap(chunk);
            while (b.hasRemaining()) {
                byte[] name = new byte[b.getInt()];
                b.get(name);
                out.add(name);
            }
        }
        return out;
    }

    private static byte[] appendName(byte[] chunk, byte[] name) {
        byte[] base = chunk == null ? new byte[0] : chunk;
        return ByteBuffer.allocate(base.length + 4 + name.length).put(base).putInt(name.length).put(name).array();
    }

    private static byte[] encodeNames(List<byte[]> names) {
        int size = 0;
        for (byte[] n : names) {
            size += 4 + n.length;
        }
        ByteBuffer b = ByteBuffer.allocate(size);
        for (byte[] n : names) {
            b.putInt(n.length).put(n);
        }
        return b.array();
    }
}
