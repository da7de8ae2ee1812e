/**
 * NyxCache's measurements (thesis ch. 5) on MOST: several {@link io.most.cache.MostCache} tenants
 * ({@link io.most.sharing.SharedTenants}) on one emulated PM device and one emulated flash device,
 * each tenant a group of threads with its own key and value sizes and get/write shares
 * ({@link io.most.bench.sharing.TenantMix}, including the thesis' Twitter traces), under one sharing
 * policy or baseline ({@link io.most.bench.sharing.SharingMode}). {@code run --workload nyx-share}
 * measures one scenario ({@link io.most.bench.sharing.SharingBench}); the {@code nyx-*} experiments of
 * {@code reproduce} are built on it.
 */
package io.most.bench.sharing;
