#!/usr/bin/env bash
# Compares MOST's DirectFileDevice with fio's io_uring engine on the same file system: the physical
# limit this machine's SSD gives one or two threads at a queue depth, and how close MOST gets to it.
#
#   most-bench/scripts/compare-fio.sh [DIR]
#
# Rows (issue 32): 4 KiB random reads at queue depth 1, 8, 32, 128 from 1 and 2 threads; 4 KiB random
# writes at 32; 16 KiB random reads at 32. Each row runs fio (--ioengine=io_uring --direct=1
# --iodepth=QD) and `most-bench run --workload device-rand-{read,write} --hierarchy direct-file
# --queue-depth QD` with MOST's io_uring engine and with its pread fallback (-Dmost.io.engine=pread),
# over a data set of the same size, the same block size, threads and duration. The three alternate
# within each row and the rows repeat REPEAT times, interleaved, so a noisy neighbour hurts all alike;
# the table shows each row's median. MOST runs forked (the bench's default: a JVM per run).
#
# Columns: IOPS; p50/p99 latency in us; CPU time per I/O in us (user + system, whole process). Both
# keep QD I/Os in flight per thread continuously, a new one submitted as each completes (MOST through
# an IoQueue: an io_uring ring per thread), and both report each I/O's latency from its submission to
# its completion.
#
# DIR must be on a file system with O_DIRECT (ext4, xfs; not tmpfs). Default: a fresh directory under
# /tmp, deleted afterwards. In a given DIR only the files this script creates are deleted.
# Environment: JAVA (JDK 25+ java), JAR (most-bench.jar), SIZE (1g), RUNTIME (15, seconds per run),
# REPEAT (3), THREADS ("1 2"), DEPTHS ("1 8 32 128"). fio is installed with apt-get when missing.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
JAR=${JAR:-$here/../target/most-bench.jar}
SIZE=${SIZE:-1g}
RUNTIME=${RUNTIME:-15}
REPEAT=${REPEAT:-3}
THREADS=${THREADS:-"1 2"}
DEPTHS=${DEPTHS:-"1 8 32 128"}

if ! command -v fio >/dev/null; then
  echo "compare-fio: fio is missing; installing it with apt-get" >&2
  sudo_cmd=""
  [[ $(id -u) -eq 0 ]] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq >&2 && $sudo_cmd apt-get install -y -qq fio >&2 \
    || { echo "compare-fio: could not install fio; install it (apt-get install fio) and rerun" >&2; exit 2; }
fi
command -v jq >/dev/null || { echo "compare-fio: jq is not installed (apt-get install jq)" >&2; exit 2; }
fio --enghelp 2>/dev/null | grep -qw io_uring \
  || { echo "compare-fio: this fio has no io_uring engine (fio --enghelp); install fio 3.13 or later" >&2; exit 2; }
[[ -x $JAVA ]] || { echo "compare-fio: no java at $JAVA; set JAVA to a JDK 25+ java" >&2; exit 2; }
[[ -f $JAR ]] || { echo "compare-fio: $JAR missing; build it: ./mvnw -q -B -pl most-bench -am package" >&2; exit 2; }
[[ $REPEAT =~ ^[1-9][0-9]*$ ]] || { echo "compare-fio: REPEAT '$REPEAT' must be a positive whole number" >&2; exit 2; }

if [[ $# -ge 1 ]]; then
  dir=$1
  [[ -d $dir ]] || { echo "compare-fio: $dir is not a directory" >&2; exit 2; }
  own_dir=false
else
  dir=$(mktemp -d /tmp/most-compare-fio.XXXXXX)
  own_dir=true
fi
results=$(mktemp -d /tmp/most-compare-fio-results.XXXXXX)
cleanup() {
  rm -f "$dir/fio.dat"
  rm -rf "$results"
  if $own_dir; then rm -rf "$dir"; fi
}
trap cleanup EXIT

# rows: name rw block-size threads queue-depth
rows=()
for n in $THREADS; do
  for qd in $DEPTHS; do rows+=("randread 4k $n $qd"); done
done
rows+=("randwrite 4k 1 32" "randread 16k 1 32")

fstype=$(df -T "$dir" | awk 'NR == 2 { print $2 }')
echo "compare-fio: $dir ($fstype), $(nproc) cores, $(uname -r), ${#rows[@]} rows x $REPEAT rounds x 3 runs of" \
     "${RUNTIME}s, $(fio --version)" >&2

# lay the fio file out once, so no measured run pays for it
fio --name=layout --filename="$dir/fio.dat" --size="$SIZE" --rw=write --bs=1m --direct=1 --ioengine=psync \
    --output=/dev/null

run_fio() { # rw bs threads qd out
  fio --name=row --filename="$dir/fio.dat" --size="$SIZE" --direct=1 --rw="$1" --bs="$2" --numjobs="$3" \
      --ioengine=io_uring --iodepth="$4" --time_based --runtime="$RUNTIME" --ramp_time=2 --group_reporting \
      --randrepeat=0 --output-format=json > "$5"
}

run_most() { # engine rw bs threads qd out
  local workload=device-rand-read
  [[ $2 == randwrite ]] && workload=device-rand-write
  "$JAVA" -Dmost.io.engine="$1" -jar "$JAR" run --workload "$workload" --hierarchy direct-file --dir "$dir" \
      --size "$SIZE" --block-size "$3" --threads "$4" --queue-depth "$5" --duration "${RUNTIME}s" --warmup 2s \
      --repeat 1 --json "$6" >&2
}

# one line per run: "<row index> <tool> <iops> <p50 us> <p99 us> <cpu us per io>"
samples="$results/samples.txt"
: > "$samples"
for ((round = 1; round <= REPEAT; round++)); do
  for i in "${!rows[@]}"; do
    read -r rw bs n qd <<< "${rows[$i]}"
    echo "== round $round/$REPEAT: $rw $bs, $n thread(s), queue depth $qd" >&2
    side=$([[ $rw == randread ]] && echo read || echo write)
    run_fio "$rw" "$bs" "$n" "$qd" "$results/fio.json"
    jq -r --arg i "$i" --arg s "$side" --argjson n "$n" --argjson t "$RUNTIME" '.jobs[0] as $j
        | ($j[$s].iops) as $iops
        | "\($i) fio \($iops) \($j[$s].clat_ns.percentile["50.000000"] / 1000)"
          + " \($j[$s].clat_ns.percentile["99.000000"] / 1000)"
          + " \(($j.usr_cpu + $j.sys_cpu) / 100 * $n * 1e6 / ($iops))"' "$results/fio.json" >> "$samples"
    for engine in io_uring pread; do
      run_most "$engine" "$rw" "$bs" "$n" "$qd" "$results/most.json"
      jq -r --arg i "$i" --arg e "$engine" '.runs[0] as $r
          | "\($i) most-\($e) \($r.io_ops_s) \($r.p50_us) \($r.p99_us) \($r.cpu_us_per_io // "nan")"' \
          "$results/most.json" >> "$samples"
    done
  done
done

median() { # tool row column -> median of that column over the rounds
  awk -v t="$1" -v i="$2" -v c="$3" '$1 == i && $2 == t { print $c }' "$samples" | sort -g \
    | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2];
            else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "| rw | bs | threads | QD | fio IOPS | MOST io_uring IOPS (x fio) | MOST pread IOPS (x fio) |" \
     "fio p50 / p99 us | MOST io_uring p50 / p99 us | fio CPU us/IO | MOST io_uring CPU us/IO (x fio) | MOST pread CPU us/IO |"
echo "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
for i in "${!rows[@]}"; do
  read -r rw bs n qd <<< "${rows[$i]}"
  fi=$(median fio "$i" 3); ui=$(median most-io_uring "$i" 3); pi=$(median most-pread "$i" 3)
  f50=$(median fio "$i" 4); f99=$(median fio "$i" 5); u50=$(median most-io_uring "$i" 4); u99=$(median most-io_uring "$i" 5)
  fc=$(median fio "$i" 6); uc=$(median most-io_uring "$i" 6); pc=$(median most-pread "$i" 6)
  awk -v rw="$rw" -v bs="$bs" -v n="$n" -v qd="$qd" -v fi="$fi" -v ui="$ui" -v pi="$pi" -v f50="$f50" \
      -v f99="$f99" -v u50="$u50" -v u99="$u99" -v fc="$fc" -v uc="$uc" -v pc="$pc" 'BEGIN {
    printf "| %s | %s | %d | %d | %.0f | %.0f (%.2fx) | %.0f (%.2fx) | %.1f / %.1f | %.1f / %.1f | %.2f | %.2f (%.2fx) | %.2f |\n",
      rw, bs, n, qd, fi, ui, ui / fi, pi, pi / fi, f50, f99, u50, u99, fc, uc, uc / fc, pc }'
done
echo
echo "Medians of $REPEAT interleaved rounds, ${RUNTIME} s each after a 2 s ramp/warm-up, $SIZE data set on $fstype," \
     "$(nproc) cores. fio: io_uring, O_DIRECT, --iodepth=QD per job, --numjobs=threads; its CPU per I/O is" \
     "(usr_cpu + sys_cpu) x jobs x runtime / I/Os. MOST: DirectFileDevice, --queue-depth QD (QD I/Os in flight" \
     "per thread through an IoQueue, one submitted as each completes), forked JVM per run; CPU per I/O is the JVM's process" \
     "CPU time over the measured window / the device's I/Os. pread: the same with -Dmost.io.engine=pread."
