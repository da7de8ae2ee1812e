package io.most.bench.cli;

import io.most.bench.Layer;
import io.most.bench.Named;
import io.most.bench.hierarchy.Hierarchies;
import io.most.bench.kv.KvEngines;
import io.most.bench.policy.Policies;
import io.most.bench.repro.Experiments;
import io.most.bench.workload.Workloads;
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
                  run        run a workload on a hierarchy with one or more policies; prints a table, writes JSON
                  reproduce <experiment|all>
                             re-measure a paper's figure or table (see experiments below): writes
                             DIR/<name>.json, .png (chart) and .md (our numbers beside the paper's)
                  demo       a DRAM + PM + MOST tiered volume page store under Spitfire's YCSB-BA mix: where each
                             tier served it, then other policies and a DRAM + NVMe baseline (about 70 s)
                  calibrate  measure each emulated device profile against its model (about 30 s)
                  profile    measure a device through a directory on it; save the profile for run
                  help       print this text

                run options:
                  --workload W        what to run (required, see below)
                  --hierarchy H       where to run it (required, see below), or profile:FILE: an emulated
                                      device following a profile saved by 'profile --save FILE'
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
                  --chart FILE.png    also draw the runs: throughput per policy (bars) and, for runs that
                                      sample a timeline, throughput over time
                  --working-set X     tier workloads: the data set as a share (0, 1] of the tiered volume's
                                      capacity (the devices stay sized by --size)
                  --engines a,b       YCSB workloads (ycsb-a..f): key-value engines to compare, one run
                                      each on the same records and requests (default most; see below)
                  --records N         YCSB workloads: records loaded before the run (default 250000,
                                      about 4x the default 64m DRAM at 1 KB records)
                  --fields N          YCSB workloads: fields per record (default 10)
                  --field-length N    YCSB workloads: bytes per field (default 100)

                reproduce options:
                  --out DIR           where the files go (default repro-out; created if missing)
                  --quick             shrink sizes and durations to seconds (a smoke test, not a result)

                demo options:
                  --duration D        measured time per run, warm-up is half of it (default 10s)
                  --progress, --json FILE   as for run

                calibrate options:
                  --progress, --json FILE   as for run

                profile <dir> [options]: measures the device under <dir> through an O_DIRECT scratch file
                (deleted afterwards): 4 KiB random reads and writes at 1 thread (latency) and at each
                --threads count (IOPS), 1 MiB sequential reads and writes (bandwidth); prints them and
                the device profile they map to (latencies, channels = IOPS x latency, bandwidths).
                  --threads a,b       thread counts for IOPS, 1..256 (default 1,2,4)
                  --duration D        measured time per measurement (default 2s, plus a fifth as warm-up)
                  --size S            scratch file, a multiple of 1m, at least 8m (default 256m)
                  --save NAME.properties  write the profile; then: run --hierarchy profile:NAME.properties
                  --progress, --json FILE   as for run

                """);
        s.append("workloads:\n");
        list(s, Workloads.registry().all());
        s.append("hierarchies:\n");
        list(s, Hierarchies.registry().all());
        s.append("engines (YCSB workloads; each gets --dram as its DRAM budget):\n");
        list(s, KvEngines.registry().all());
        s.append("experiments (reproduce; 'all' runs each, sharing identical runs):\n");
        list(s, Experiments.registry().all());
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
