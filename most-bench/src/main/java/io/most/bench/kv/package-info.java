/**
 * The key-value engines YCSB workloads compare: MOST, the OLTP engine of examples/oltp and the peers
 * (H2 MVStore, Ehcache, a Caffeine page cache). Every engine is registered in
 * {@link io.most.bench.kv.KvEngines}: add a new one there.
 */
package io.most.bench.kv;
