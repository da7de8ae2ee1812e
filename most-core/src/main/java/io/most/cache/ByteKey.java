package io.most.cache;

import java.util.Arrays;

/** A key as a map key of the large-item index: the bytes (never changed) and their {@link KeyHash}. */
final class ByteKey {
    final byte[] bytes;
    final long hash;

    ByteKey(byte[] bytes, long hash) {
        this.bytes = bytes;
        this.hash = hash;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ByteKey k && k.hash == hash && Arrays.equals(k.bytes, bytes);
    }

    @Override
    public int hashCode() {
        return (int) (hash ^ (hash >>> 32));
    }
}
