/**
 * most-bench: the workload driver that measures MOST against its peers. This package holds the shared
 * vocabulary of the others: {@link io.most.bench.Named} entries in a {@link io.most.bench.Registry},
 * the {@link io.most.bench.Layer} a workload, hierarchy and policy belong to, the two failure kinds
 * ({@link io.most.bench.UsageException}, exit code 2, and {@link io.most.bench.BenchException}), sizes
 * and durations ({@link io.most.bench.Units}) and scratch files.
 *
 * <p>The packages, from the command line inwards:
 * <ul>
 *   <li>{@code cli}: the commands (run, reproduce, demo, calibrate, profile, help) and their options;</li>
 *   <li>{@code fork}: the measurement method: one JVM per run, repetitions, rotation, load gate, medians;</li>
 *   <li>{@code driver}: the load driver (closed and open loop), measurement, progress line, one result row;</li>
 *   <li>{@code workload} and {@code workload.ycsb}: what runs (register a workload in
 *       {@link io.most.bench.workload.Workloads});</li>
 *   <li>{@code hierarchy}: where it runs, devices and page stores (register one in
 *       {@link io.most.bench.hierarchy.Hierarchies});</li>
 *   <li>{@code policy}: which placement policy runs it;</li>
 *   <li>{@code kv}: the key-value engines YCSB compares (register one in {@link io.most.bench.kv.KvEngines});</li>
 *   <li>{@code profile}: measuring a real device into a device profile;</li>
 *   <li>{@code repro}: the papers' figures and tables (register one in {@link io.most.bench.repro.Experiments});</li>
 *   <li>{@code report}: tables, charts and JSON.</li>
 * </ul>
 */
package io.most.bench;
