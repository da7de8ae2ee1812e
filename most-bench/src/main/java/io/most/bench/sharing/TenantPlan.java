package io.most.bench.sharing;

import io.most.bench.Units;
import io.most.bench.UsageException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One tenant of a scenario: its name, mix, driver threads and what the policies give it. Written on the
 * command line as {@code NAME=MIX[/threads=N][/keys=N][/rate=R][/burst=D][/weight=W][/limit=X]}, tenants
 * separated by commas ({@link #parseAll}).
 *
 * @param name       the tenant's name, unique in the scenario
 * @param mix        its requests
 * @param threads    its driver threads, each issuing one request at a time
 * @param keys       keys loaded before the run, 0 for the default ({@link SharingSettings#keysFor})
 * @param rate       requests per second over all its threads (an open loop paced per thread), 0 for a
 *                   closed loop (as fast as the cache answers): "light" and "intensive" caches
 * @param burstNanos from this instant of the measured window on the tenant runs closed loop whatever its
 *                   rate (the thesis' write burst), or -1 for never
 * @param weight     its weight under the proportional policy
 * @param limit      its resource limit as a fraction of the device (0 for none)
 */
public record TenantPlan(String name, TenantMix mix, int threads, long keys, double rate, long burstNanos, int weight,
                         double limit) {
    static final int MAX_THREADS = 64;

    public TenantPlan {
        if (name == null || !name.matches("[a-z][a-z0-9]{0,15}")) {
            throw new UsageException("--tenants: tenant name '" + name + "' must be a lower-case letter then up to 15"
                    + " letters or digits (it names JSON fields)");
        }
        if (threads < 1 || threads > MAX_THREADS) {
            throw new UsageException("--tenants: " + name + ": threads must be 1.." + MAX_THREADS + ", got " + threads);
        }
        if (keys < 0 || !(rate >= 0) || Double.isInfinite(rate) || weight < 1 || !(limit >= 0 && limit <= 1)) {
            throw new UsageException("--tenants: " + name + ": keys >= 0, a finite rate >= 0, weight >= 1 and a limit"
                    + " in [0, 1] (a fraction of the device; 0 = none), got keys " + keys + ", rate " + rate
                    + ", weight " + weight + ", limit " + limit);
        }
    }

    /** Whether the tenant paces its requests (until a burst). */
    boolean paced() {
        return rate > 0;
    }

    /**
     * The tenants of {@code text}: {@code lc=get-256/threads=1/rate=500,be=write-1k/threads=2}.
     *
     * @throws UsageException naming the bad part and the syntax
     */
    public static List<TenantPlan> parseAll(String text) {
        List<TenantPlan> plans = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (String part : text.split(",", -1)) {
            TenantPlan plan = parse(part.strip());
            if (!names.add(plan.name())) {
                throw new UsageException("--tenants names tenant '" + plan.name() + "' twice");
            }
            plans.add(plan);
        }
        return List.copyOf(plans);
    }

    private static TenantPlan parse(String text) {
        String[] fields = text.split("/", -1);
        int eq = fields[0].indexOf('=');
        if (eq <= 0) {
            throw new UsageException("--tenants: '" + text + "' must start NAME=MIX, e.g."
                    + " lc=get-256/threads=1/rate=500 (options: threads, keys, rate, burst, weight, limit)");
        }
        String name = fields[0].substring(0, eq);
        TenantMix mix = TenantMix.parse(fields[0].substring(eq + 1));
        int threads = 1;
        long keys = 0;
        double rate = 0;
        long burst = -1;
        int weight = 1;
        double limit = 0;
        for (int i = 1; i < fields.length; i++) {
            String[] kv = fields[i].split("=", 2);
            if (kv.length != 2 || kv[1].isBlank()) {
                throw new UsageException("--tenants: " + name + ": '" + fields[i] + "' must be OPTION=VALUE");
            }
            String option = "--tenants " + name + " " + kv[0];
            switch (kv[0]) {
                case "threads" -> threads = (int) Units.parseWhole(option, kv[1], 1, MAX_THREADS);
                case "keys" -> keys = Units.parseWhole(option, kv[1], 1, 10_000_000);
                case "rate" -> rate = Units.parseWhole(option, kv[1], 1, 10_000_000);
                case "burst" -> burst = Units.parseDurationNanos(option, kv[1], true);
                case "weight" -> weight = (int) Units.parseWhole(option, kv[1], 1, 1000);
                case "limit" -> limit = fraction(option, kv[1]);
                default -> throw new UsageException("--tenants: " + name + ": unknown option '" + kv[0] + "'; valid:"
                        + " threads, keys, rate, burst, weight, limit");
            }
        }
        return new TenantPlan(name, mix, threads, keys, rate, burst, weight, limit);
    }

    private static double fraction(String option, String text) {
        try {
            double v = Double.parseDouble(text);
            if (v > 0 && v <= 1) {
                return v;
            }
        } catch (NumberFormatException e) {
            // the message below says what is valid
        }
        throw new UsageException(option + " '" + text + "' must be a fraction of the device in (0, 1], e.g. 0.42");
    }
}
