/**
 * The key-value engines YCSB workloads compare: MOST, the ordered engine of most-core/most-kv (the examples/oltp engine) and the peers
 * (H2 MVStore, Ehcache, a Caffeine page cache). Every engine is registered in
 * {@link io.most.bench.kv.KvEngines}: add a new one there.
 */
package io.most.bench.kv;
