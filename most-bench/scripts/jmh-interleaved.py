#!/usr/bin/env python3
"""Runs JMH benchmarks one fork at a time, interleaved, and reports ratios to a baseline per cycle.

    most-bench/scripts/jmh-interleaved.py [--jar JAR] [--java JAVA] [--cycles N] [--jmh-args ARGS]
                                          BASELINE BENCHMARK...

JMH's own `-f N` runs all forks of one benchmark before the next, so a drift of the machine over
minutes (on a shared host the memory latency moves by a fifth within ten minutes) lands between the
benchmarks and shows in their ratio. Here each cycle runs every benchmark once, one fork each, in an
order rotated from cycle to cycle (a,b,c / b,c,a / ...), and each benchmark's score is divided by the
baseline's score of the same cycle. Printed per benchmark: the median score, and the median of the
per-cycle ratios with their min-max. The load average is printed at the start of every cycle.

Benchmarks are PageReadBenchmark method names (the default class), or full JMH regexes containing a
dot. Needs the jar built by `./mvnw -pl most-bench/most-jmh -am package`.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def regex(name):
    return name if '.' in name else 'PageReadBenchmark.' + name + '$'


def run_fork(args, name):
    """One fork of one benchmark: its score (ns/op or the benchmark's unit)."""
    with tempfile.NamedTemporaryFile(suffix='.json', delete=False) as out:
        path = out.name
    try:
        command = [args.java, '-jar', args.jar, regex(name), '-f', '1', '-rf', 'json', '-rff', path]
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
    parser.add_argument('--java', default=os.environ.get('JAVA', '/usr/lib/jvm/temurin-25-jdk-amd64/bin/java'))
    parser.add_argument('--cycles', type=int, default=8)
    parser.add_argument('--jmh-args', default='-wi 3 -i 5', help='JMH options of every fork')
    parser.add_argument('baseline')
    parser.add_argument('benchmarks', nargs='+')
    args = parser.parse_args()
    names = [args.baseline] + args.benchmarks
    scores = {name: [] for name in names}
    for cycle in range(args.cycles):
        print(f'cycle {cycle + 1}/{args.cycles}, load average {os.getloadavg()[0]:.2f}', flush=True)
        shift = cycle % len(names)
        for name in names[shift:] + names[:shift]:
            scores[name].append(run_fork(args, name))
    base = scores[args.baseline]
    print(f'\n{"benchmark":<28} {"median score":>12} {"ratio median":>12} {"min":>6} {"max":>6}')
    for name in names:
        ratios = [s / b for s, b in zip(scores[name], base)]
        print(f'{name:<28} {statistics.median(scores[name]):12.2f} {statistics.median(ratios):12.2f}'
              f' {min(ratios):6.2f} {max(ratios):6.2f}')
    print('\nper cycle: ' + json.dumps({name: [round(s, 2) for s in scores[name]] for name in names}))


if __name__ == '__main__':
    main()
