package io.most.bench;

import io.most.device.DeviceProfiles;
import java.util.Collection;
import java.util.Locale;

/** The help text, with the names of every registered workload, hierarchy and policy. */
final class Usage {
    private Usage() {
    }

    static String text() {
        StringBuilder s = new StringBuilder();
        s.append("""
                usage: java -jar most-bench.jar <command> [options]

                commands:
                  run    run a workload on a hierarchy with one or more policies; prints a table, writes JSON
                  demo   measure each emulated device profile against its model (about 30 s)
                  help   print this text

                run options:
                  --workload W        what to run (required, see below)
                  --hierarchy H       where to run it (required, see below)
                  --policies a,b      policies to compare, one run each (default: the layer's default,
                                      raw for block workloads, spitfire-lazy for page workloads)
                  --threads N         driver threads, 1..1024 (default 1)
                  --duration D        measured time per policy: 500ms, 20s, 2m (default 10s)
                  --warmup D          unmeasured time before it, may be 0s (default 2s)
                  --intensity X       open loop at X times the model's max IOPS, split over the threads;
                                      latency counts from each operation's intended start (emulated
                                      hierarchies only; default: closed loop)
                  --size S            data set: 64k, 256m, 1g, a multiple of the block size
                                      (default 256m for files, 64m in memory, 2g for page hierarchies)
                  --block-size B      bytes per I/O, a power of two from 512 (default 4096); on page
                                      hierarchies the page size, 4k..64k (default 16k)
                  --dram S            page hierarchies: DRAM buffer pool (default 64m)
                  --pm S              page hierarchies: PM buffer pool (default 256m, DRAM:PM = 1:4)
                  --epoch D           adaptive policies: time per candidate policy (default 1s; the
                                      annealer needs about 154 epochs to cool down)
                  --theta X           zipfian workloads: skew within [0, 1) (default 0.99)
                  --pm-profile P      page hierarchies with PM: pmem (Optane DC PM access costs, the
                                      default) or none (no emulated cost: the software path only)
                  --dir DIR           directory for file-backed hierarchies (default: a fresh temporary
                                      directory); the data file is deleted afterwards
                  --seed S            random seed; every policy sees the same requests (default 42)
                  --json FILE         also write {"runs":[...]} to FILE; '-' = stdout (the table then goes
                                      to stderr)
                  --progress          show the live progress line even when not on a terminal
                  --engines a,b       YCSB workloads (ycsb-a..f): key-value engines to compare, one run
                                      each on the same records and requests (default most; see below)
                  --records N         YCSB workloads: records loaded before the run (default 250000,
                                      about 4x the default 64m DRAM at 1 KB records)
                  --fields N          YCSB workloads: fields per record (default 10)
                  --field-length N    YCSB workloads: bytes per field (default 100)

                demo options:
                  --progress, --json FILE   as for run

                """);
        s.append("workloads:\n");
        list(s, Workloads.registry().all());
        s.append("hierarchies:\n");
        list(s, Hierarchies.registry().all());
        s.append("engines (YCSB workloads; each gets --dram as its DRAM budget):\n");
        list(s, KvEngines.registry().all());
        s.append("policies (block layer):\n");
        list(s, Policies.forLayer(Layer.BLOCK).all());
        s.append("policies (page layer):\n");
        list(s, Policies.forLayer(Layer.PAGE).all());
        s.append("  spitfire-Dr-Dw-Nr-Nw  explicit <Dr, Dw, Nr, Nw>, e.g. spitfire-0.01-0.01-1-1 (the paper's sweeps)\n");
        s.append(String.format(Locale.ROOT, """

                Emulated profiles run %.0fx slower than the papers' devices (DeviceProfiles.DEFAULT_SCALE), so
                that this VM's late wake-ups stay small against their service times; on page hierarchies
                the PM access costs (pmem profile) are scaled alike, DRAM is not.
                Page workloads load the data set first (untimed), then warm up: give a --warmup long
                enough to fill the buffers (e.g. 10s for the defaults).
                Exit codes: 0 ok, 1 the run failed, 2 bad command line.
                """, DeviceProfiles.DEFAULT_SCALE));
        return s.toString();
    }

    private static void list(StringBuilder s, Collection<? extends Named> entries) {
        int width = entries.stream().mapToInt(e -> e.name().length()).max().orElse(0);
        for (Named e : entries) {
            s.append("  ").append(e.name()).repeat(' ', width - e.name().length() + 2).append(e.description()).append('\n');
        }
    }
}
