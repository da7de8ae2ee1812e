/**
 * What a run does: block, tier and page workloads. Every workload the command line knows is
 * registered in {@link io.most.bench.workload.Workloads}: add a new one there.
 */
package io.most.bench.workload;
