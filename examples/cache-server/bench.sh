#!/usr/bin/env bash
# Runs redis-benchmark against the MOST cache server and against redis-server on this machine, interleaved
# and repeated, and prints the medians of ops/s, p50 and p99 latency (ms) for SET and GET, and the GET hit
# ratio of each server (keyspace_hits / (hits + misses) from INFO stats, over the measured runs).
#
#   examples/cache-server/bench.sh dram     # the data fits the DRAM budget
#   examples/cache-server/bench.sh spill    # the data is 4x the DRAM budget: redis-server gets
#                                           # maxmemory = the budget + allkeys-lru, MOST the same DRAM + flash
#   examples/cache-server/bench.sh defaults # MOST started as a new user starts it (--dir only: 64 MiB DRAM,
#                                           # 256 MiB of bucket pages), 100,000 keys (redis-benchmark -r 100000)
#
# Settings (environment): DRAM (budget, default 64m), SIZE (value bytes, 100), ROUNDS (5), REQUESTS
# (requests per test, default 2x the keyspace), CLIENTS (50), PIPELINE (16), DIRTY_RATIO (MOST's --dirty-ratio,
# 0.5), DIR (data directory, default
# a temporary one), PORT_MOST / PORT_REDIS (16379 / 16380). Build first: ./mvnw -q -pl examples/cache-server -am package -DskipTests
# Do not run it beside other heavy work: the numbers are only as quiet as the machine.
set -euo pipefail
scenario=${1:-dram}
here="$(cd "$(dirname "$0")" && pwd)"
jar="$here/target/most-cache-server.jar"
[ -f "$jar" ] || { echo "no $jar: build it with ./mvnw -q -pl examples/cache-server -am package -DskipTests" >&2; exit 1; }
# the JDK >= 25 the build uses (JAVA_HOME, else the newest under /usr/lib/jvm), as ./mvnw picks it
. "$here/../../.mvn/select-jdk.sh"
java="$JAVA_HOME/bin/java"
for tool in redis-server redis-cli redis-benchmark; do
  command -v "$tool" >/dev/null || { echo "$tool is missing (apt-get install -y redis-tools redis-server)" >&2; exit 1; }
done

to_bytes() { # 64m -> 67108864
  local v=${1,,} n; n=${v%[kmg]}
  case $v in *k) echo $((n << 10));; *m) echo $((n << 20));; *g) echo $((n << 30));; *) echo "$v";; esac
}
DRAM=${DRAM:-64m}; SIZE=${SIZE:-100}; ROUNDS=${ROUNDS:-5}; CLIENTS=${CLIENTS:-50}; PIPELINE=${PIPELINE:-16}
PORT_MOST=${PORT_MOST:-16379}; PORT_REDIS=${PORT_REDIS:-16380}
dram_bytes=$(to_bytes "$DRAM")
item=$((SIZE + 16 + 24))   # value + key ("key:" + 12 digits) + per-item header, roughly
case $scenario in
  dram)  keyspace=${KEYSPACE:-$((dram_bytes / 4 / item))} ;;     # a quarter of the budget: all in DRAM
  spill) keyspace=${KEYSPACE:-$((dram_bytes * 4 / item))} ;;     # 4x the budget
  defaults) keyspace=${KEYSPACE:-100000} ;;
  *) echo "usage: $0 dram|spill|defaults" >&2; exit 2 ;;
esac
# at least 2,000,000 requests per test: shorter tests (0.2 s in DRAM) measure the JVM's warm-up
default_requests=$((keyspace * 2 > 2000000 ? keyspace * 2 : 2000000))
REQUESTS=${REQUESTS:-$default_requests}
ssd_bytes=$(( (keyspace * item * 3 / 4096 + 1024) * 4096 ))     # bucket pages with room to spare (no evictions)

work=${DIR:-$(mktemp -d)}
mkdir -p "$work/most" "$work/redis"
cleanup() {
  redis-cli -p "$PORT_MOST" shutdown >/dev/null 2>&1 || true
  redis-cli -p "$PORT_REDIS" shutdown nosave >/dev/null 2>&1 || true
  [ -n "${DIR:-}" ] || rm -rf "$work"
}
trap cleanup EXIT

echo "scenario $scenario: DRAM budget $DRAM, $keyspace keys of $SIZE B (about $((keyspace * item >> 20)) MiB),"
echo "  $REQUESTS requests per test, -c $CLIENTS -P $PIPELINE, $ROUNDS rounds, data in $work"
redis_args=(--port "$PORT_REDIS" --bind 127.0.0.1 --save "" --appendonly no --dir "$work/redis" --daemonize yes
            --logfile "$work/redis/redis.log")
[ "$scenario" = spill ] && redis_args+=(--maxmemory "$dram_bytes" --maxmemory-policy allkeys-lru)
redis-server "${redis_args[@]}"
# Unsafe for Netty's buffers: without it Netty (on JDK >= 24) copies each argument through a fresh ByteBuffer view
most_args=(--port "$PORT_MOST" --dir "$work/most")
[ "$scenario" = defaults ] || most_args+=(--dram "$DRAM" --ssd "$ssd_bytes" --regions 64m --dirty-ratio "${DIRTY_RATIO:-0.5}")
"$java" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -jar "$jar" "${most_args[@]}" \
     > "$work/most.log" 2>&1 &
for port in "$PORT_MOST" "$PORT_REDIS"; do
  for _ in $(seq 600); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
  redis-cli -p "$port" ping >/dev/null 2>&1 || { echo "no server on port $port; see $work" >&2; DIR=keep; exit 1; }
done

# Give every key of the keyspace once before measuring: redis-benchmark -r picks keys at random with
# replacement, so its SETs alone leave about e^-(SETs/keyspace) of the keys never written (0.25% after three
# rounds of 2x the keyspace), which would read as keys lost. Same keys as redis-benchmark's key:__rand_int__.
load() {
  awk -v n="$keyspace" -v size="$SIZE" 'BEGIN {
    v = sprintf("%*s", size, ""); gsub(/ /, "x", v)
    for (i = 0; i < n; i++) { k = sprintf("key:%012d", i); printf "*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n", length(k), k, size, v }
  }' | redis-cli -p "$1" --pipe > /dev/null
}
for port in "$PORT_MOST" "$PORT_REDIS"; do load "$port"; done
echo "  loaded $keyspace keys into each server"

stat() { redis-cli -p "$1" info stats | tr -d '\r' | awk -F: -v k="$2" '$1 == k { print $2 }'; }
# MOST's device reads (INFO's most section): bucket pages read from flash and region reads
device_reads() { redis-cli -p "$PORT_MOST" info | tr -d '\r' | awk -F: '$1 == "most_page_device_reads" || $1 == "most_region_device_reads" { n += $2 } END { print n + 0 }'; }
reads_before=$(device_reads)
results="$work/results.csv"   # server,test,rps,p50,p99
: > "$results"
declare -A hits misses
for round in $(seq "$ROUNDS"); do
  # alternate which server goes first, so that neither always runs on a warmer machine
  if (( round % 2 )); then order=(most redis); else order=(redis most); fi
  for server in "${order[@]}"; do
    port=$PORT_MOST; [ "$server" = redis ] && port=$PORT_REDIS
    h0=$(stat "$port" keyspace_hits); m0=$(stat "$port" keyspace_misses)
    redis-benchmark -h 127.0.0.1 -p "$port" -t set,get -n "$REQUESTS" -r "$keyspace" -d "$SIZE" \
        -c "$CLIENTS" -P "$PIPELINE" --csv 2>/dev/null | tr -d '"' |
      awk -F, -v s="$server" '$1 == "SET" || $1 == "GET" { print s "," $1 "," $2 "," $5 "," $7 }' >> "$results"
    h1=$(stat "$port" keyspace_hits); m1=$(stat "$port" keyspace_misses)
    hits[$server]=$(( ${hits[$server]:-0} + h1 - h0 )); misses[$server]=$(( ${misses[$server]:-0} + m1 - m0 ))
    echo "  round $round $server done"
  done
done

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
col() { awk -F, -v s="$1" -v t="$2" -v c="$3" '$1 == s && $2 == t { print $c }' "$results" | median; }
printf '\n%-6s %-4s %12s %9s %9s %10s %8s  (of %s keys given)\n' server test "ops/s" "p50 ms" "p99 ms" "GET hits" "keys" "$keyspace"
for server in most redis; do
  port=$PORT_MOST; [ "$server" = redis ] && port=$PORT_REDIS
  total=$(( ${hits[$server]} + ${misses[$server]} ))
  ratio=$(awk -v h="${hits[$server]}" -v t="$total" 'BEGIN { printf "%.2f%%", t ? 100 * h / t : 0 }')
  keys=$(redis-cli -p "$port" dbsize)
  for t in SET GET; do
    printf '%-6s %-4s %12.0f %9s %9s %10s %8s\n' "$server" "$t" "$(col "$server" "$t" 3)" "$(col "$server" "$t" 4)" \
        "$(col "$server" "$t" 5)" "$([ "$t" = GET ] && echo "$ratio" || echo -)" "$keys"
  done
done
echo "(medians over $ROUNDS rounds; GET hits: GETs that found their key, from INFO stats; keys: DBSIZE at the end)"
echo "MOST device reads during the measured rounds (after loading): $(( $(device_reads) - reads_before ))"
