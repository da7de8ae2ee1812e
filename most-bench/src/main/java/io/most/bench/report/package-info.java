/**
 * Output: console tables, PNG charts and the JSON reports.
 */
package io.most.bench.report;
