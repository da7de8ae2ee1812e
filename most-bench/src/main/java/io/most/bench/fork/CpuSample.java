package io.most.bench.fork;

import java.util.Map;

/**
 * The machine's CPU counters at one instant, and the bench's own: what {@link LoadGate} compares over a
 * few seconds to see how busy the machine is with work other than the bench's. All counts are in the
 * kernel's clock ticks (USER_HZ), summed over every core.
 *
 * @param busyTicks  ticks every core spent not idle (user, nice, system, irq, softirq, steal) since boot
 * @param totalTicks ticks every core spent in any state since boot, idle and I/O wait included
 * @param ownTicks   user + system ticks of each of the bench's processes alive now (this JVM and the
 *                   forked runs under it), by pid
 */
public record CpuSample(long busyTicks, long totalTicks, Map<Long, Long> ownTicks) {
    public CpuSample {
        ownTicks = Map.copyOf(ownTicks);
    }

    /**
     * The share of the machine's CPU (0 to 1, all cores together) that processes other than the bench's
     * kept busy between {@code before} and {@code after}: the machine's busy ticks less the bench's own.
     * A bench process alive in only one of the samples is left out of the bench's share, which can only
     * overstate the others' (a wait a little too long, never a run on a busy machine). NaN when the
     * samples span no time.
     */
    public static double otherBusy(CpuSample before, CpuSample after) {
        long total = after.totalTicks - before.totalTicks;
        if (total <= 0) {
            return Double.NaN;
        }
        long busy = after.busyTicks - before.busyTicks;
        long own = 0;
        for (Map.Entry<Long, Long> e : after.ownTicks.entrySet()) {
            Long then = before.ownTicks.get(e.getKey());
            if (then != null) {
                own += Math.max(0, e.getValue() - then);
            }
        }
        return Math.clamp((double) (busy - own) / total, 0.0, 1.0);
    }
}
