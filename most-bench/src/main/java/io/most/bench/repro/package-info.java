/**
 * {@code reproduce}: each {@link io.most.bench.repro.Experiment} re-measures one figure or table of a
 * paper as a list of {@code run} command lines; registered in {@link io.most.bench.repro.Experiments}.
 */
package io.most.bench.repro;
