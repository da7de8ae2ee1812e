package io.most.sharing;

/**
 * The time a controller reads and waits in: the system clock in production, a simulated plant in
 * tests, where {@link #sleep} advances the plant instead of waiting, so every policy runs
 * deterministically on the same controller code.
 */
interface SharingClock {
    /** Current instant in nanoseconds. */
    long nanoTime();

    /** Lets {@code nanos} pass. */
    void sleep(long nanos) throws InterruptedException;

    /** The system clock. */
    SharingClock SYSTEM = new SharingClock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void sleep(long nanos) throws InterruptedException {
            if (nanos > 0) {
                Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
            }
        }
    };
}
