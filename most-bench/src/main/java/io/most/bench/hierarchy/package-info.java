/**
 * Where a run happens: files, memory, emulated devices, tiered volumes and page stores over them. Every
 * hierarchy the command line knows is registered in {@link io.most.bench.hierarchy.Hierarchies}.
 */
package io.most.bench.hierarchy;
