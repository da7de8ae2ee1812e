/**
 * The command line: {@link io.most.bench.cli.Main} dispatches to one class per command; option parsing,
 * help and the exit code 2 on a bad command line come from picocli, validation of values (names,
 * ranges, pairings) from {@link io.most.bench.cli.RunSpec} and the command classes.
 */
package io.most.bench.cli;
