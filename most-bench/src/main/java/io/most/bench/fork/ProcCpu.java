package io.most.bench.fork;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a {@link CpuSample} from Linux's {@code /proc}: the first line of {@code /proc/stat} for the
 * machine, and {@code /proc/<pid>/stat} for this JVM and each of its live descendants (the forked runs).
 * Parsing is separate from reading so that it is tested on fixed text.
 */
final class ProcCpu {
    private static final Path PROC = Path.of("/proc");

    private ProcCpu() {
    }

    /** A sample of this machine now; empty where there is no {@code /proc} (not Linux). */
    static Optional<CpuSample> sample() {
        try {
            String stat = Files.readString(PROC.resolve("stat"));
            Map<Long, Long> own = new HashMap<>();
            ProcessHandle self = ProcessHandle.current();
            for (ProcessHandle p : (Iterable<ProcessHandle>) () -> java.util.stream.Stream.concat(
                    java.util.stream.Stream.of(self), self.descendants()).iterator()) {
                processTicks(p.pid()).ifPresent(t -> own.put(p.pid(), t));
            }
            long[] machine = machineTicks(stat);
            return Optional.of(new CpuSample(machine[0], machine[1], own));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Optional<Long> processTicks(long pid) {
        try {
            return Optional.of(processTicks(Files.readString(PROC.resolve(Long.toString(pid)).resolve("stat"))));
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // it ended between the listing and the read
        }
    }

    /**
     * Busy and total ticks from the text of {@code /proc/stat}: its first line, {@code cpu user nice
     * system idle iowait irq softirq steal guest guest_nice}. Guest time is already counted in user and
     * nice, so it is not added again; idle and iowait are the idle states.
     */
    static long[] machineTicks(String procStat) {
        String first = procStat.lines().findFirst().orElse("");
        String[] f = first.trim().split("\\s+");
        if (f.length < 5 || !f[0].equals("cpu")) {
            throw new IllegalArgumentException("not the cpu line of /proc/stat: '" + first + "'");
        }
        long total = 0;
        long idle = 0;
        for (int i = 1; i < Math.min(f.length, 9); i++) { // user .. steal
            long v = Long.parseLong(f[i]);
            total += v;
            if (i == 4 || i == 5) { // idle, iowait
                idle += v;
            }
        }
        return new long[] {total - idle, total};
    }

    /**
     * User + system ticks from the text of {@code /proc/<pid>/stat}. The command name (field 2) is in
     * parentheses and may hold spaces, so fields are counted after its closing parenthesis: utime and
     * stime are fields 14 and 15.
     */
    static long processTicks(String pidStat) {
        int close = pidStat.lastIndexOf(')');
        if (close < 0) {
            throw new IllegalArgumentException("not a /proc/<pid>/stat line: '" + pidStat + "'");
        }
        List<String> f = List.of(pidStat.substring(close + 1).trim().split("\\s+"));
        // after the name: state(3) ppid(4) ... utime(14) stime(15), i.e. indexes 11 and 12 here
        return Long.parseLong(f.get(11)) + Long.parseLong(f.get(12));
    }
}
