package io.most.sharing;

/**
 * What a controller sees and controls of one tenant: its cumulative use of each resource, the
 * requests it completed and their latency, and its throttles. {@link Tenant} is the real one; tests
 * implement it with a simulated plant so the policies run on the controller's own code.
 */
interface Regulated {
    String name();

    /** Cost units (picoseconds of the whole device) used so far on {@code resource}. */
    long usedPicos(Resource resource);

    /** The throttle on the tenant's accesses to {@code resource}. */
    Throttle throttle(Resource resource);

    /** Requests the tenant completed so far (its application-level throughput). */
    long requests();

    /** The 99th-percentile request latency since the last {@link #resetWindow}, 0 when none completed. */
    long windowP99Nanos();

    /** Starts a new latency window. */
    void resetWindow();

    /** Records the controller's latest estimate of the tenant's slowdown (alone over shared performance). */
    void reportSlowdown(double slowdown);
}
