package io.most.bench.sharing;

import io.most.bench.UsageException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What one tenant's requests look like: key and value sizes and the share of gets (the rest are
 * writes, each an in-place replace of a loaded key, as in the thesis' write-heavy caches).
 *
 * <p>Named mixes: the thesis' Twitter traces (Table 5.3, average sizes and get/write shares, the
 * shares normalised to gets + writes) and the synthetic caches of its figures, {@code get-SIZE}
 * (get-only), {@code write-SIZE} (write-only) and {@code mix-PCT-SIZE} (PCT% gets), with 8-byte keys
 * (the thesis' are 4 B; 8 B numbers every key of a data set without a lookup table).
 *
 * @param name       as written on the command line
 * @param keyBytes   bytes per key, at least 8
 * @param valueBytes bytes per value
 * @param getShare   share of requests that are gets, in [0, 1]
 */
public record TenantMix(String name, int keyBytes, int valueBytes, double getShare) {
    /** Synthetic keys: a big-endian key number. */
    static final int SYNTHETIC_KEY_BYTES = 8;
    /** The largest value of a synthetic mix: the thesis sweeps 64 B to 4 KiB. */
    static final int MAX_SYNTHETIC_VALUE = 64 * 1024;

    private static final Map<String, TenantMix> TWITTER = new LinkedHashMap<>();

    static {
        twitter("twitter-s1", 36, 799, 0.86, 0.13);
        twitter("twitter-c1", 67, 2439, 0.93, 0.07);
        twitter("twitter-c2", 18, 67485, 0.52, 0.48);
    }

    public TenantMix {
        if (keyBytes < SYNTHETIC_KEY_BYTES || valueBytes < 1 || !(getShare >= 0 && getShare <= 1)) {
            throw new IllegalArgumentException("a mix needs keys of at least 8 bytes, values of at least 1 and a get"
                    + " share in [0, 1], got " + keyBytes + ", " + valueBytes + ", " + getShare);
        }
    }

    private static void twitter(String name, int key, int value, double gets, double writes) {
        TWITTER.put(name, new TenantMix(name, key, value, gets / (gets + writes)));
    }

    /** The Twitter trace mixes of thesis Table 5.3, by name. */
    public static List<TenantMix> twitter() {
        return List.copyOf(TWITTER.values());
    }

    /**
     * The mix {@code name}: a Twitter trace ({@code twitter-s1}, {@code twitter-c1}, {@code twitter-c2})
     * or a synthetic {@code get-SIZE}, {@code write-SIZE}, {@code mix-PCT-SIZE} with SIZE such as 256,
     * 1k or 4k.
     *
     * @throws UsageException naming the valid forms
     */
    public static TenantMix parse(String name) {
        String n = name.strip().toLowerCase(Locale.ROOT);
        TenantMix twitter = TWITTER.get(n);
        if (twitter != null) {
            return twitter;
        }
        String[] parts = n.split("-", -1);
        try {
            if (parts.length == 2 && (parts[0].equals("get") || parts[0].equals("write"))) {
                return new TenantMix(n, SYNTHETIC_KEY_BYTES, size(parts[1]), parts[0].equals("get") ? 1 : 0);
            }
            if (parts.length == 3 && parts[0].equals("mix")) {
                int pct = Integer.parseInt(parts[1]);
                if (pct < 0 || pct > 100) {
                    throw new NumberFormatException();
                }
                return new TenantMix(n, SYNTHETIC_KEY_BYTES, size(parts[2]), pct / 100.0);
            }
        } catch (NumberFormatException e) {
            // falls through to the message naming the forms
        }
        throw new UsageException("unknown tenant mix '" + name + "'; valid: " + String.join(", ", TWITTER.keySet())
                + ", get-SIZE, write-SIZE, mix-PCT-SIZE (SIZE 1.." + MAX_SYNTHETIC_VALUE / 1024 + "k such as 64, 256,"
                + " 4k; PCT the gets in percent, 0..100)");
    }

    private static int size(String text) {
        int bytes = text.endsWith("k") ? Integer.parseInt(text.substring(0, text.length() - 1)) * 1024
                : Integer.parseInt(text);
        if (bytes < 1 || bytes > MAX_SYNTHETIC_VALUE) {
            throw new NumberFormatException();
        }
        return bytes;
    }

    /** Key + value bytes of one item. */
    long itemBytes() {
        return (long) keyBytes + valueBytes;
    }

    /** One line for a table: "36/799 B, 87% gets". */
    public String describe() {
        return String.format(Locale.ROOT, "%d/%d B, %.0f%% gets", keyBytes, valueBytes, getShare * 100);
    }
}
