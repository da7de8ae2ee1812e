package io.most.bench;

/** Something the command line selects by name: a workload, a hierarchy, a policy. */
public interface Named {
    /** The name used on the command line and in reports (lower case, dashes). */
    String name();

    /** One line for the usage text. */
    String description();
}
