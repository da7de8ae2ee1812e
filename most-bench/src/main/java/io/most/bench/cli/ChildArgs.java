package io.most.bench.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A command line with some options taken out, as the parent of a forked run passes its own options on
 * to the child except those it sets for the child itself (the one engine, the JSON file, no fork).
 */
final class ChildArgs {
    private ChildArgs() {
    }

    /**
     * {@code args} without the options named in {@code drop} ({@code --name value} and
     * {@code --name=value}; the value is taken along only for options in {@code takesValue}).
     */
    static List<String> without(List<String> args, Set<String> drop, Set<String> takesValue) {
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String name = arg.startsWith("--") ? arg.substring(2).replaceFirst("=.*", "") : null;
            if (name == null || !drop.contains(name)) {
                kept.add(arg);
            } else if (!arg.contains("=") && takesValue.contains(name) && i + 1 < args.size()) {
                i++; // its value
            }
        }
        return kept;
    }
}
