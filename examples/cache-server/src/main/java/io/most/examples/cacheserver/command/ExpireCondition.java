package io.most.examples.cacheserver.command;

import java.util.List;

/**
 * The condition of {@code EXPIRE key time [NX|XX|GT|LT]} (Redis 7.0): NX only without a lifetime, XX
 * only with one, GT only to a later deadline, LT only to an earlier one (no lifetime counts as an
 * infinite one), with Redis's error texts for unknown and incompatible options.
 */
enum ExpireCondition {
    ALWAYS, NX, XX, GT, LT, XX_GT, XX_LT;

    /** Parses the options from index 3 of {@code args}. */
    static ExpireCondition parse(List<byte[]> args) {
        boolean nx = false;
        boolean xx = false;
        boolean gt = false;
        boolean lt = false;
        for (int j = 3; j < args.size(); j++) {
            switch (CommandTable.lowerName(args.get(j))) {
                case "nx" -> nx = true;
                case "xx" -> xx = true;
                case "gt" -> gt = true;
                case "lt" -> lt = true;
                default -> throw new CommandException("ERR Unsupported option " + CommandTable.text(args.get(j)));
            }
        }
        if (nx && (xx || gt || lt)) {
            throw new CommandException("ERR NX and XX, GT or LT options at the same time are not compatible");
        }
        if (gt && lt) {
            throw new CommandException("ERR GT and LT options at the same time are not compatible");
        }
        if (nx) {
            return NX;
        }
        if (xx) {
            return gt ? XX_GT : lt ? XX_LT : XX;
        }
        return gt ? GT : lt ? LT : ALWAYS;
    }

    /**
     * Whether the new lifetime may be set.
     *
     * @param currentTtl the key's remaining lifetime in ms, or {@link Keyspace#NO_EXPIRY}
     * @param newTtl     the requested one in ms
     */
    boolean allows(long currentTtl, long newTtl) {
        boolean persistent = currentTtl == Keyspace.NO_EXPIRY;
        return switch (this) {
            case ALWAYS -> true;
            case NX -> persistent;
            case XX -> !persistent;
            case GT -> !persistent && newTtl > currentTtl;
            case LT -> persistent || newTtl < currentTtl;
            case XX_GT -> !persistent && newTtl > currentTtl;
            case XX_LT -> !persistent && newTtl < currentTtl;
        };
    }
}
