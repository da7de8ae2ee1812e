/**
 * YCSB A-F on key-value engines, with YCSB's own key generators (scrambled zipfian, skewed latest,
 * acknowledged inserts), checked against YCSB's core in the tests.
 */
package io.most.bench.workload.ycsb;
