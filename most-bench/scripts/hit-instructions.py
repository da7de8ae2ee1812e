#!/usr/bin/env python3
"""Counts the instructions of a hit benchmark's hot loop, per C2 compile of its JMH stub.

    most-bench/scripts/hit-instructions.py [--jar JAR] [--java JAVA] [--listing] [--jvm-args ARGS] BENCHMARK...

For each benchmark it runs the JMH jar briefly with -XX:CompileCommand=print on the benchmark's
stub (no hsdis needed: the JVM prints the machine code as hex), disassembles every C2 compile of the
stub with objdump, and prints the shortest cycle through the loop's safepoint poll that calls nothing
but real methods (a call into the uncommon-trap blob ends a path): the instructions one iteration of
the measured loop executes when every branch goes the hot way (a cycle that calls nothing preferred).
Two numbers per compile: all
instructions, and the "work" left without register-to-register moves and stack spills, which vary
from one compile of the same code to the next. Instruction counts, not times: they do not depend on
the load of the machine. A loop whose hot path calls a method not inlined (pmHit's slow path) counts
only the caller's part; such a compile is marked "call".

Benchmarks are method names of PageReadBenchmark or HitPathReplicaBenchmark (unique across them).
Needs java (JDK 25), objdump (binutils) and the jar built by `./mvnw -pl most-bench/most-jmh -am package`.
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def compiles(text):
    """The code bytes (base address, bytes) of every 'Compiled method (c2)' block of the output."""
    lines = text.split('\n')
    starts = [i for i, l in enumerate(lines) if l.startswith('Compiled method (c2)')]
    for s in starts:
        data, base = bytearray(), None
        for l in lines[s + 1:]:
            if l.startswith('Compiled method') or l.startswith('[Stub Code]') or l.startswith('[Exception Handler]'):
                break
            m = re.match(r'\s+0x([0-9a-f]+): (.*)$', l)
            if not m or m.group(2).startswith(';'):
                continue
            hexes = m.group(2).replace('|', '').split()
            if not all(re.fullmatch(r'[0-9a-f]+', h) for h in hexes):
                continue
            addr = int(m.group(1), 16)
            if base is None:
                base = addr
            if base + len(data) != addr:
                break
            data += bytes.fromhex(''.join(hexes))
        if base is not None:
            yield base, bytes(data)


def disassemble(base, code):
    with tempfile.NamedTemporaryFile(suffix='.bin') as f:
        f.write(code)
        f.flush()
        out = subprocess.run(['objdump', '-D', '-b', 'binary', '-m', 'i386:x86-64', '--adjust-vma=%#x' % base, f.name],
                             capture_output=True, text=True, check=True).stdout
    return [(int(m.group(1), 16), m.group(2).strip())
            for m in (re.match(r'\s*([0-9a-f]+):\t[0-9a-f ]+\t(.*)$', l) for l in out.split('\n')) if m]


def hot_loop(ins):
    """The shortest cycle through a safepoint poll, as instruction texts, or None; and whether it calls.

    A cycle that calls nothing is preferred to a shorter one that calls a method: a branch the
    benchmark never takes (e.g. pmHit's test for a DRAM copy) may end in a call of a method C2 did not
    inline because it never ran, and would otherwise pass for the hot path."""
    loop = shortest_cycle(ins, False)
    return loop if loop[0] is not None else shortest_cycle(ins, True)


def shortest_cycle(ins, allow_calls):
    index = {a: i for i, (a, _) in enumerate(ins)}
    targets = collections.Counter(m.group(1) for _, t in ins for m in [re.match(r'call\s+(0x[0-9a-f]+)', t)] if m)
    traps = {t for t, n in targets.items() if n >= 3}  # the uncommon-trap blob, called from many stubs

    def successors(i):
        text = ins[i][1]
        op = text.split()[0] if text else ''
        call = re.match(r'call\s+(0x[0-9a-f]+)', text)
        if call and call.group(1) not in traps and allow_calls:
            return [i + 1] if i + 1 < len(ins) else []
        if op.startswith('call') or op.startswith('ret') or op == 'hlt':
            return []
        out = []
        jump = re.match(r'j\w*\s+0x([0-9a-f]+)', text)
        if jump:
            if int(jump.group(1), 16) in index:
                out.append(index[int(jump.group(1), 16)])
            if op == 'jmp':
                return out
        return out + ([i + 1] if i + 1 < len(ins) else [])

    best = None
    for poll in (i for i, (_, t) in enumerate(ins) if re.match(r'test\s+%eax,\(%r\w+\)', t)):
        previous, queue, found = {poll: None}, collections.deque([poll]), False
        while queue and not found:
            u = queue.popleft()
            for v in successors(u):
                if v == poll:
                    found, last = True, u
                    break
                if v not in previous:
                    previous[v] = u
                    queue.append(v)
        if found:
            path = [last]
            while path[-1] != poll:
                path.append(previous[path[-1]])
            if best is None or len(path) < len(best):
                best = path
    if best is None:
        return None, False
    texts = [ins[i][1] for i in reversed(best)]
    return texts, any(t.startswith('call') for t in texts)


def is_move(text):
    op, _, args = text.partition(' ')
    if op in ('vmovq', 'vmovd'):
        return True
    if op in ('mov', 'movq', 'movl') and ',' in args:
        source, target = (x.strip() for x in args.rsplit(',', 1))
        register = re.compile(r'%\w+$')
        return bool(register.match(source) and register.match(target)) or '(%rsp)' in args
    return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--jar', default=os.path.join(HERE, '..', 'target', 'most-jmh.jar'))
    parser.add_argument('--java', default=os.environ.get('JAVA', '/usr/lib/jvm/temurin-25-jdk-amd64/bin/java'))
    parser.add_argument('--listing', action='store_true', help="also print each compile's hot cycle")
    parser.add_argument('--jvm-args', default='', help='more JVM options for the benchmark JVM')
    parser.add_argument('benchmarks', nargs='+')
    args = parser.parse_args()
    for b in args.benchmarks:
        stub = '*Benchmark_%s_jmhTest::%s_avgt_jmhStub' % (b, b)  # the generated class of either
        run = subprocess.run([args.java, '-jar', args.jar, r'(PageReadBenchmark|HitPathReplicaBenchmark)\.%s$' % b,
                              '-f', '1', '-wi', '3', '-i', '1',
                              '-w', '1s', '-r', '1s', '-jvmArgsAppend',
                              ('-XX:+UnlockDiagnosticVMOptions -XX:CompileCommand=print,' + stub + ' ' + args.jvm_args).strip()],
                             capture_output=True, text=True)
        counts = []
        for base, code in compiles(run.stdout):
            loop, calls = hot_loop(disassemble(base, code))
            if loop is None:
                counts.append('no loop')
            else:
                work = sum(1 for t in loop if not is_move(t))
                counts.append('%d/%d%s' % (len(loop), work, ' call' if calls else ''))
                if args.listing:
                    print('%s, compile %d:\n  %s' % (b, len(counts), '\n  '.join(loop)))
        print('%s: all/work per C2 compile: %s' % (b, ', '.join(counts) or 'none (see the JMH output)'))
        sys.stdout.flush()


if __name__ == '__main__':
    main()
