package io.most;

/**
 * Spitfire's data migration policy {@code <Dr, Dw, Nr, Nw>} (paper section 3): the probabilities
 * with which the buffer manager uses DRAM and persistent memory on each path. Each is drawn per
 * operation.
 *
 * @param dr probability that a read of a PM-resident page copies it into DRAM (else it is read in PM)
 * @param dw probability that a write of a page not in DRAM brings it into DRAM (else it is written in PM)
 * @param nr probability that a page read from SSD is installed in PM (else it goes to DRAM only)
 * @param nw probability that a dirty page evicted from DRAM is written to PM (else straight to SSD)
 * @param nvmAdmissionQueue HyMEM's admission queue instead of {@code nw}: a dirty page evicted from
 *                          DRAM goes to PM only if it was evicted before recently (its id is in a
 *                          FIFO of half the PM frames); otherwise its id is queued and it goes to SSD
 */
public record MigrationPolicy(double dr, double dw, double nr, double nw, boolean nvmAdmissionQueue) {

    public MigrationPolicy {
        check("dr", dr);
        check("dw", dw);
        check("nr", nr);
        check("nw", nw);
    }

    /** A plain probabilistic policy without the admission queue. */
    public static MigrationPolicy of(double dr, double dw, double nr, double nw) {
        return new MigrationPolicy(dr, dw, nr, nw, false);
    }

    /** Every path taken: the classic inclusive hierarchy (all 1). */
    public static MigrationPolicy eager() {
        return of(1, 1, 1, 1);
    }

    /** Spitfire's lazy policy (0.01, 0.01, 0.2, 1). */
    public static MigrationPolicy lazy() {
        return of(0.01, 0.01, 0.2, 1);
    }

    /** HyMEM (paper Table 3): eager DRAM, SSD reads bypass PM, NVM admission queue on eviction. */
    public static MigrationPolicy hymem() {
        return new MigrationPolicy(1, 1, 0, 1, true);
    }

    /**
     * The preset with this name: {@code eager}, {@code lazy} or {@code hymem}.
     *
     * @throws IllegalArgumentException listing the valid names
     */
    public static MigrationPolicy named(String name) {
        return switch (name) {
            case "eager" -> eager();
            case "lazy" -> lazy();
            case "hymem" -> hymem();
            default -> throw new IllegalArgumentException("unknown migration policy '" + name
                    + "'; valid: eager, lazy, hymem");
        };
    }

    private static void check(String name, double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException(name + " must be a probability within [0, 1], got " + p);
        }
    }

    @Override
    public String toString() {
        return "<Dr=" + dr + ", Dw=" + dw + ", Nr=" + nr + ", Nw=" + (nvmAdmissionQueue ? "queue" : nw) + ">";
    }
}
