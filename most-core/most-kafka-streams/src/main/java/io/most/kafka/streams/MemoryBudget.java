package io.most.kafka.streams;

import java.util.HashMap;
import java.util.Map;

/**
 * One DRAM budget per application instance ({@code application.id} and {@code state.dir}), shared by all
 * its MOST stores, whatever the number of tasks, partitions and stores: the budget is divided into
 * {@link MostStreamsConfig#SLOTS} equal shares and each open store holds one. A store opened while every
 * share is held gets {@link #MIN_PAGES} pages instead, so the total is bounded by the budget plus that
 * minimum per store beyond the shares (and a warning says to raise the slot count).
 *
 * <p>A store's page store cannot grow or shrink its DRAM once open, hence fixed shares rather than a
 * pool that rebalances; a share is returned when its store closes (a task moved away).
 */
final class MemoryBudget {
    /** The least DRAM a store runs with, in pages: enough for a few root-to-leaf paths and splits. */
    static final int MIN_PAGES = 64;
    private static final Map<String, MemoryBudget> INSTANCES = new HashMap<>();
    private static final System.Logger LOG = System.getLogger(MemoryBudget.class.getName());

    private final String instance;
    private long budget;
    private int slots;
    private int held;
    private int overflow;
    private long grantedBytes;

    private MemoryBudget(String instance) {
        this.instance = instance;
    }

    /** A grant of DRAM bytes to one store; {@link #release} gives it back. */
    record Grant(MemoryBudget budget, long bytes, boolean share) {
        void release() {
            budget.release(this);
        }
    }

    /** The budget of the application instance {@code instance}, created on first use. */
    static synchronized MemoryBudget of(String instance) {
        return INSTANCES.computeIfAbsent(instance, MemoryBudget::new);
    }

    /** Takes a share of {@code config}'s budget for a store of {@code pageSize}-byte pages. */
    Grant acquire(MostStreamsConfig config, String store) {
        synchronized (MemoryBudget.class) {
            budget = config.dramBytes();
            slots = config.slots();
            long minimum = (long) MIN_PAGES * config.pageSize();
            long share = Math.max(minimum, budget / slots);
            if (held < slots) {
                held++;
                grantedBytes += share;
                return new Grant(this, share, true);
            }
            overflow++;
            grantedBytes += minimum;
            LOG.log(System.Logger.Level.WARNING, "MOST store {0} of {1}: all {2} shares of {3}={4} are held; it runs"
                    + " with {5} bytes beyond the budget. Raise {6} (and {3}) to keep every store inside it.",
                    store, instance, slots, MostStreamsConfig.DRAM, budget, minimum, MostStreamsConfig.SLOTS);
            return new Grant(this, minimum, false);
        }
    }

    private void release(Grant grant) {
        synchronized (MemoryBudget.class) {
            if (grant.share()) {
                held--;
            } else {
                overflow--;
            }
            grantedBytes -= grant.bytes();
        }
    }

    /** Shares held now (for tests and meters). */
    int held() {
        synchronized (MemoryBudget.class) {
            return held;
        }
    }

    /** The budget ({@link MostStreamsConfig#DRAM}) as last configured by a store's {@code init}. */
    long budgetBytes() {
        synchronized (MemoryBudget.class) {
            return budget;
        }
    }

    /** DRAM granted to the open stores now: their shares plus the minimums of stores beyond them. */
    long grantedBytes() {
        synchronized (MemoryBudget.class) {
            return grantedBytes;
        }
    }

    /** Stores running beyond the shares now. */
    int overflow() {
        synchronized (MemoryBudget.class) {
            return overflow;
        }
    }
}
