package io.most.bench.sharing;

import io.most.bench.UsageException;
import java.util.List;
import java.util.Locale;

/**
 * What regulates the tenants of a run: an item of {@code run --workload nyx-share --policies ...}.
 * <ul>
 *   <li>{@code off}: the caches are no tenants: they pay the same PM and flash models directly, with no
 *       accounting, throttle or request report in their path (the overhead baseline);</li>
 *   <li>{@code none}: tenants of {@link io.most.sharing.SharedTenants} under {@code none}: accounted,
 *       never throttled (a single tenant so is the "alone" run);</li>
 *   <li>{@code limit}, {@code fair}, {@code proportional}: SharedTenants' policies of those names, each
 *       tenant's {@code limit} and {@code weight} as its terms;</li>
 *   <li>{@code bandwidth-limit}: tenants under {@code none} and {@link BandwidthLimit}, the classic
 *       memcache limit in value bytes per second (thesis Fig. 5.6's baseline);</li>
 *   <li>{@code qos:NAME:TARGET} and {@code qos-heaviest:NAME:TARGET}: Nyx's QoS for tenant NAME with
 *       interference analysis, or throttling the heaviest best-effort tenant (Nyx-Caladan, Fig. 5.8).
 *       TARGET is a P99 such as {@code 900us} or {@code 2ms}, or a multiple of NAME's P99 over the
 *       warm-up, such as {@code 1.5x}, so the target means the same on a faster or slower machine.</li>
 * </ul>
 *
 * @param name    as written
 * @param kind    which of the above
 * @param tenant  the latency-critical tenant of a QoS mode, else null
 * @param target  a QoS mode's target as written (the P99 or the multiple), else null
 */
public record SharingMode(String name, Kind kind, String tenant, String target) {
    /** The modes. */
    public enum Kind { OFF, NONE, LIMIT, BANDWIDTH_LIMIT, FAIR, PROPORTIONAL, QOS, QOS_HEAVIEST }

    private static final List<String> FORMS = List.of("off", "none", "limit", "bandwidth-limit", "fair", "proportional",
            "qos:NAME:TARGET", "qos-heaviest:NAME:TARGET");

    /** The modes as the command line writes them. */
    public static List<String> forms() {
        return FORMS;
    }

    /**
     * The mode {@code text}.
     *
     * @throws UsageException naming the valid modes
     */
    public static SharingMode parse(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        String[] parts = t.split(":", -1);
        if (parts.length == 3 && (parts[0].equals("qos") || parts[0].equals("qos-heaviest"))) {
            if (parts[1].isBlank()) {
                throw new UsageException("--policies '" + text + "': name the latency-critical tenant, as in"
                        + " qos:lc:1.5x");
            }
            SharingMode mode = new SharingMode(t, parts[0].equals("qos") ? Kind.QOS : Kind.QOS_HEAVIEST, parts[1],
                    parts[2]);
            mode.checkTarget();
            return mode;
        }
        Kind kind = switch (t) {
            case "off" -> Kind.OFF;
            case "none" -> Kind.NONE;
            case "limit" -> Kind.LIMIT;
            case "bandwidth-limit" -> Kind.BANDWIDTH_LIMIT;
            case "fair" -> Kind.FAIR;
            case "proportional" -> Kind.PROPORTIONAL;
            default -> throw new UsageException("--policies: unknown sharing mode '" + text + "' for nyx-share; valid: "
                    + String.join(", ", FORMS));
        };
        return new SharingMode(t, kind, null, null);
    }

    /** Whether the caches run as tenants. */
    boolean tenants() {
        return kind != Kind.OFF;
    }

    /** Whether this is a QoS mode. */
    boolean qos() {
        return kind == Kind.QOS || kind == Kind.QOS_HEAVIEST;
    }

    /** The policy text {@link io.most.sharing.SharedTenants} is opened with (QoS controllers start later). */
    String sharedTenantsPolicy() {
        return switch (kind) {
            case LIMIT -> "limit";
            case FAIR -> "fair";
            case PROPORTIONAL -> "proportional";
            default -> "none";
        };
    }

    /** Whether the target is a multiple of the warm-up's P99 ({@code 1.5x}). */
    boolean relativeTarget() {
        return target != null && target.endsWith("x");
    }

    /** The multiple of a relative target. */
    double targetMultiple() {
        return Double.parseDouble(target.substring(0, target.length() - 1));
    }

    /** An absolute target in nanoseconds. */
    long targetNanos() {
        if (target.endsWith("us")) {
            return Long.parseLong(target.substring(0, target.length() - 2)) * 1_000;
        }
        return Long.parseLong(target.substring(0, target.length() - 2)) * 1_000_000;
    }

    private void checkTarget() {
        try {
            if (relativeTarget() ? targetMultiple() > 0 && Double.isFinite(targetMultiple())
                    : (target.endsWith("us") || target.endsWith("ms")) && targetNanos() > 0) {
                return;
            }
        } catch (NumberFormatException e) {
            // the message below says what is valid
        }
        throw new UsageException("--policies '" + name + "': the P99 target '" + target + "' must be a whole number of"
                + " us or ms (900us, 2ms) or a positive multiple of the tenant's warm-up P99 (1.5x)");
    }
}
