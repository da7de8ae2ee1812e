/**
 * Deterministic hit-ratio replays: one request stream through the page store under each DRAM eviction
 * policy and through a Caffeine cache of the same capacity ({@link io.most.bench.hitratio.HitRatioReplay}).
 * Hit ratios, unlike times, do not depend on the machine's load, so they can be compared anywhere.
 */
package io.most.bench.hitratio;
