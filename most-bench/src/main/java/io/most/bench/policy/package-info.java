/**
 * Placement policies per layer (raw, Spitfire's migration probabilities, MOST and its tiering peers);
 * registered per layer in {@link io.most.bench.policy.Policies}.
 */
package io.most.bench.policy;
