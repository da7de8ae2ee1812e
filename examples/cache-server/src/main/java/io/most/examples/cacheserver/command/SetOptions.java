package io.most.examples.cacheserver.command;

import java.util.List;

/**
 * The options of {@code SET key value [NX|XX] [GET] [EX s|PX ms|EXAT s|PXAT ms|KEEPTTL]}, parsed with
 * the rules and error precedence of Redis 7.0: an option conflict is {@code ERR syntax error} before a
 * bad number is {@code ERR value is not an integer or out of range}, before a non-positive or
 * overflowing time is {@code ERR invalid expire time in 'set' command}.
 *
 * @param ifAbsent   NX: only if the key does not exist
 * @param ifPresent  XX: only if it exists
 * @param returnOld  GET: reply with the old value
 * @param keepTtl    KEEPTTL: keep the key's lifetime
 * @param deadline   absolute deadline in epoch milliseconds, 0 for none
 */
record SetOptions(boolean ifAbsent, boolean ifPresent, boolean returnOld, boolean keepTtl, long deadline) {

    private enum Expiry { NONE, EX, PX, EXAT, PXAT }

    /** Parses {@code args} from index 3 on, {@code nowMillis} being the command's time. */
    static SetOptions parse(List<byte[]> args, long nowMillis) {
        boolean nx = false;
        boolean xx = false;
        boolean get = false;
        boolean keepTtl = false;
        Expiry unit = Expiry.NONE;
        byte[] time = null;
        for (int j = 3; j < args.size(); j++) {
            String opt = CommandTable.lowerName(args.get(j));
            boolean hasNext = j + 1 < args.size();
            switch (opt) {
                case "nx" -> {
                    if (xx) {
                        throw CommandException.syntax();
                    }
                    nx = true;
                }
                case "xx" -> {
                    if (nx) {
                        throw CommandException.syntax();
                    }
                    xx = true;
                }
                case "get" -> get = true;
                case "keepttl" -> {
                    if (unit != Expiry.NONE) {
                        throw CommandException.syntax();
                    }
                    keepTtl = true;
                }
                case "ex", "px", "exat", "pxat" -> {
                    Expiry requested = Expiry.valueOf(opt.toUpperCase(java.util.Locale.ROOT));
                    // Redis lets an expiry option repeat (the last wins) but not mix with another one
                    if (keepTtl || !hasNext || (unit != Expiry.NONE && unit != requested)) {
                        throw CommandException.syntax();
                    }
                    unit = requested;
                    time = args.get(++j);
                }
                default -> throw CommandException.syntax();
            }
        }
        long deadline = unit == Expiry.NONE ? 0 : deadline(unit, RedisNumbers.parseLong(time), nowMillis);
        return new SetOptions(nx, xx, get, keepTtl, deadline);
    }

    private static long deadline(Expiry unit, long value, long nowMillis) {
        boolean seconds = unit == Expiry.EX || unit == Expiry.EXAT;
        if (value <= 0 || (seconds && value > Long.MAX_VALUE / 1000)) {
            throw CommandException.invalidExpire("set");
        }
        long millis = seconds ? value * 1000 : value;
        boolean relative = unit == Expiry.EX || unit == Expiry.PX;
        long deadline = relative ? millis + nowMillis : millis;
        if (deadline <= 0) {
            throw CommandException.invalidExpire("set");
        }
        return deadline;
    }
}
