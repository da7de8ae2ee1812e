package io.most.kv;

/**
 * One entry returned by a scan.
 *
 * @param key   the key (a fresh array the caller owns)
 * @param value the value (a fresh array the caller owns)
 */
public record KeyValue(byte[] key, byte[] value) {
}
