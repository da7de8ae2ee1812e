/** The look-aside cache workload ({@code cache-zipf}) against the cache engines of {@code kv.CacheEngines}. */
package io.most.bench.workload.cache;
