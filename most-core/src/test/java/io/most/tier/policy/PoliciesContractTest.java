package io.most.tier.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.most.tier.PlacementPolicy;
import io.most.tier.PlacementPolicyContractTest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The placement-policy contract on every policy the core offers: one subclass per name of
 * {@link PlacementPolicies}, and a check that no name is left without one.
 */
class PoliciesContractTest {
    /** The names the subclasses below cover. */
    static final List<String> COVERED = List.of("most", "most-paper", "striping", "hemem", "batman", "colloid",
            "colloid+", "colloid++", "orthus");

    @Test
    void everyNamedPolicyRunsTheContract() {
        assertEquals(PlacementPolicies.names(), COVERED, "a policy added to PlacementPolicies needs a contract subclass here");
    }
}

class MostPolicyContractTest extends PlacementPolicyContractTest {
    @Override
    protected PlacementPolicy newPolicy() {
        return PlacementPolicies.named("most").get();
    }
}

class MostPaperPolicyContractTest extends PlacementPolicyContractTest {
    @Override
    protected PlacementPolicy newPolicy() {
        return PlacementPolicies.named("most-paper").get();
    }
}

class StripingPolicyContractTest extends PlacementPolicyContractTest {
    @Override
    protected PlacementPolicy newPolicy() {
        return PlacementPolicies.named("striping").get();
    }
}

class HememPolicyContractTest extends PlacementPolicyContractTest {
    @Override
    protected PlacementPolicy newPolicy() {
        return PlacementPolicies.named("hemem").get();
    }
}

class BatmanPolicyContractTest extends PlacementPolicyContractTest {
    @Override
    protected PlacementPolicy newPolicy() {
        return PlacementPolicies.named("batman").get();
    }
}

class ColloidPolicyContractTest extends PlacementPolicyContractTest {
    @Override
    protected PlacementPolicy newPolicy() {
        return PlacementPolicies.named("colloid").get();
    }
}

class ColloidPlusPolicyContractTest extends PlacementPolicyContractTest {
    @Override
    protected PlacementPolicy newPolicy() {
        return PlacementPolicies.named("colloid+").get();
    }
}

class ColloidPlusPlusPolicyContractTest extends PlacementPolicyContractTest {
    @Override
    protected PlacementPolicy newPolicy() {
        return PlacementPolicies.named("colloid++").get();
    }
}

class OrthusPolicyContractTest extends PlacementPolicyContractTest {
    @Override
    protected PlacementPolicy newPolicy() {
        return PlacementPolicies.named("orthus").get();
    }
}
