/**
 * Drives a workload session: {@link io.most.bench.driver.LoadDriver} runs a closed or open loop of
 * {@link io.most.bench.driver.LoadShape} on driver threads and returns a
 * {@link io.most.bench.driver.Measurement}; {@link io.most.bench.driver.RunResult} is one report row.
 */
package io.most.bench.driver;
