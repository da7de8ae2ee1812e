/**
 * The ordered key-value engine on a {@link io.most.PageStore}: a B+tree of variable-length byte keys on
 * slotted pages, opened as a transactional database ({@link io.most.kv.KvDatabase}: key locks, a
 * write-ahead log, ARIES-style recovery) or as a single-writer store ({@link io.most.kv.SingleWriterKvStore}:
 * checkpoints with a rollback journal, snapshot iterators).
 *
 * <h2>Scans read their leaves ahead</h2>
 * A range scan (ascending or descending, in either mode) reads the leaves it is about to visit with one
 * batch of device reads ({@link io.most.PageStore#prefetch}, io_uring underneath where the device has
 * it) instead of one read per leaf as it reaches each: on an SSD the batch is in flight at once, so a
 * scan over cold leaves waits about as long as for one read per batch. Leaves link only to their right
 * neighbour, so the leaves ahead are taken from their parent: the descent to the scan's first leaf
 * notes, at the level-1 node, the ids of that leaf and the next children (the previous ones for a
 * descending scan), at most {@link io.most.kv.KvOptions.Builder#scanPrefetchLeaves} of them (64 by
 * default), no more than the scan's limit needs at the size of the leaves scans have seen, and none
 * past the scan's bound, and reads them in one batch before it visits the first leaf. When the scan
 * leaves that window, a new descent refills it.
 *
 * <p>The read-ahead is a hint: the scan still reads and checks every leaf as it would without it, so
 * a leaf that split or merged meanwhile costs only a wasted read, and a page the batch failed to read is
 * read again by the scan, which then reports the error if it persists. {@code scanPrefetchLeaves(0)}
 * turns it off; results are the same either way.
 */
package io.most.kv;
