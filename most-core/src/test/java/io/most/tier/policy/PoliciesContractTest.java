package io.most.tier.policy;

import io.most.tier.PlacementPolicyContractTest;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The placement-policy contract on every policy the core offers: the whole suite once per name of
 * {@link PlacementPolicies}, so that a policy added there runs it with nothing more to write.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.most.tier.policy.PlacementPolicies#names")
class PoliciesContractTest extends PlacementPolicyContractTest {
    @Parameter
    String name;

    @Override
    protected PlacementPolicy newPolicy() {
        return PlacementPolicies.named(name).get();
    }
}
