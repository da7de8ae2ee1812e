#!/usr/bin/env bash
# Compares most-bench's direct-file random reads with fio on the same file system.
#
#   most-bench/scripts/compare-fio.sh [DIR]
#
# For N = 1, 2, 8 threads it runs fio (psync, O_DIRECT, 4 KiB random reads over a 1 GiB file, 15 s)
# and then `most-bench run --workload device-rand-read --hierarchy direct-file` with the same size,
# block size, threads and duration, alternating fio and MOST per configuration so that a noisy
# neighbour hurts both alike. Prints a markdown table on stdout; tool output goes to stderr.
#
# DIR must be on a file system with O_DIRECT (ext4, xfs; not tmpfs). Default: a fresh directory
# under /tmp, deleted afterwards. In a given DIR only the files this script creates are deleted.
# Environment: JAVA (JDK 25+ java), JAR (most-bench.jar), THREADS ("1 2 8"), RUNTIME (15).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
JAR=${JAR:-$here/../target/most-bench.jar}
THREADS=${THREADS:-"1 2 8"}
RUNTIME=${RUNTIME:-15}

for tool in fio jq; do
  command -v "$tool" >/dev/null || { echo "compare-fio: $tool is not installed" >&2; exit 2; }
done
[[ -x $JAVA ]] || { echo "compare-fio: no java at $JAVA; set JAVA to a JDK 25+ java" >&2; exit 2; }
[[ -f $JAR ]] || { echo "compare-fio: $JAR missing; build it: ./mvnw -q -B -pl most-bench -am package" >&2; exit 2; }

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

fstype=$(df -T "$dir" | awk 'NR == 2 { print $2 }')
echo "compare-fio: $dir ($fstype), $(nproc) cores, threads: $THREADS, ${RUNTIME}s each, fio $(fio --version)" >&2

rows=()
for n in $THREADS; do
  echo "== fio, $n thread(s)" >&2
  fio --name=randread --filename="$dir/fio.dat" --size=1g --direct=1 --rw=randread --bs=4k \
      --ioengine=psync --numjobs="$n" --time_based --runtime="$RUNTIME" --group_reporting \
      --output-format=json > "$results/fio-$n.json"
  echo "== most-bench, $n thread(s)" >&2
  "$JAVA" -jar "$JAR" run --workload device-rand-read --hierarchy direct-file --dir "$dir" --size 1g \
      --threads "$n" --duration "${RUNTIME}s" --json "$results/most-$n.json" >&2

  fio_iops=$(jq '.jobs[0].read.iops' "$results/fio-$n.json")
  fio_p50=$(jq '.jobs[0].read.clat_ns.percentile["50.000000"] / 1000' "$results/fio-$n.json")
  fio_p99=$(jq '.jobs[0].read.clat_ns.percentile["99.000000"] / 1000' "$results/fio-$n.json")
  most_iops=$(jq '.runs[0].throughput_ops' "$results/most-$n.json")
  most_p50=$(jq '.runs[0].p50_us' "$results/most-$n.json")
  most_p99=$(jq '.runs[0].p99_us' "$results/most-$n.json")
  rows+=("$(awk -v n="$n" -v fi="$fio_iops" -v mi="$most_iops" -v f50="$fio_p50" -v f99="$fio_p99" \
      -v m50="$most_p50" -v m99="$most_p99" 'BEGIN {
        printf "| %d | %.0f | %.0f | %.2f | %.1f / %.1f | %.1f / %.1f |", n, fi, mi, mi / fi, f50, f99, m50, m99 }')")
done

echo "| threads | fio IOPS | MOST IOPS | MOST/fio | fio p50 / p99 us | MOST p50 / p99 us |"
echo "|--------:|---------:|----------:|---------:|-----------------:|------------------:|"
printf '%s\n' "${rows[@]}"
echo
echo "fio: psync, O_DIRECT, 4 KiB random reads over 1 GiB, ${RUNTIME} s; MOST: DirectFileDevice (pread, O_DIRECT)," \
     "same size and block size, ${RUNTIME} s after its default 2 s warm-up; fio and MOST alternate per row." \
     "Latencies: fio completion latency (clat), MOST per-call latency; both from log-linear histograms."
