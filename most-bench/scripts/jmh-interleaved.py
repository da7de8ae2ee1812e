#!/usr/bin/env python3
"""Runs JMH benchmarks one fork at a time, interleaved, and reports ratios to a baseline per cycle.

    most-bench/scripts/jmh-interleaved.py [--jar JAR] [--compare-jar JAR] [--java JAVA] [--cycles N]
                                          [--jmh-args ARGS] BASELINE BENCHMARK...

JMH's own `-f N` runs all forks of one benchmark before the next, so a drift of the machine over
minutes (on a shared host the memory latency moves by a fifth within ten minutes) lands between the
benchmarks and shows in their ratio. Here each cycle runs every benchmark once, one fork each, in an
order rotated from cycle to cycle (a,b,c / b,c,a / ...), and each benchmark's score is divided by the
baseline's score of the same cycle. Printed per benchmark: the median score, and the median of the
per-cycle ratios with their min-max. The load average is printed at the start of every cycle.

Benchmarks are method names of PageReadBenchmark or HitPathReplicaBenchmark (the default classes: a
name is unique across them, and a rung moved between them keeps its name), or full JMH regexes
containing a dot. With --compare-jar every BENCHMARK also runs from a second jar (another build: the commit
before a change), as one more entry of the same cycles, named BENCHMARK@JARNAME: a before/after
comparison from one invocation, each side a ratio to the same cycle's baseline. Needs the jar built by `./mvnw -pl most-bench/most-jmh -am package`.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


# the classes a bare benchmark name is looked up in (a name is in one of them)
CLASSES = '(PageReadBenchmark|HitPathReplicaBenchmark)'


def regex(name):
    return name if '.' in name else CLASSES + r'\.' + name + '$'


def run_fork(args, entry):
    """One fork of one benchmark, entry = (jar, name): its score (ns/op or the benchmark's unit)."""
    jar, name = entry
    with tempfile.NamedTemporaryFile(suffix='.json', delete=False) as out:
        path = out.name
    try:
        command = [args.java, '-jar', jar, regex(name), '-f', '1', '-rf', 'json', '-rff', path]
        command += args.jmh_args.split()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(path) as f:
            results = json.load(f)
        if len(results) != 1:
            sys.exit(f'{name}: expected one result, got {len(results)} (a regex matching several benchmarks?)')
        return results[0]['primaryMetric']['score']
    finally:
        os.unlink(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--jar', default=os.path.join(HERE, '..', 'target', 'most-jmh.jar'))
    parser.add_argument('--compare-jar', help='a second build: every BENCHMARK runs from it too')
    parser.add_argument('--java', default=os.environ.get('JAVA', '/usr/lib/jvm/temurin-25-jdk-amd64/bin/java'))
    parser.add_argument('--cycles', type=int, default=8)
    parser.add_argument('--jmh-args', default='-wi 3 -i 5', help='JMH options of every fork')
    parser.add_argument('baseline')
    parser.add_argument('benchmarks', nargs='+')
    args = parser.parse_args()
    entries = {name: (args.jar, name) for name in [args.baseline] + args.benchmarks}
    if args.compare_jar:
        other = os.path.basename(args.compare_jar)
        entries.update({f'{name}@{other}': (args.compare_jar, name) for name in args.benchmarks})
    names = list(entries)
    scores = {name: [] for name in names}
    for cycle in range(args.cycles):
        print(f'cycle {cycle + 1}/{args.cycles}, load average {os.getloadavg()[0]:.2f}', flush=True)
        shift = cycle % len(names)
        for name in names[shift:] + names[:shift]:
            scores[name].append(run_fork(args, entries[name]))
    base = scores[args.baseline]
    print(f'\n{"benchmark":<40} {"median score":>12} {"ratio median":>12} {"min":>6} {"max":>6}')
    for name in names:
        ratios = [s / b for s, b in zip(scores[name], base)]
        print(f'{name:<40} {statistics.median(scores[name]):12.2f} {statistics.median(ratios):12.2f}'
              f' {min(ratios):6.2f} {max(ratios):6.2f}')
    print('\nper cycle: ' + json.dumps({name: [round(s, 2) for s in scores[name]] for name in names}))


if __name__ == '__main__':
    main()
