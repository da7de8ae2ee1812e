package io.most.tier;

import io.most.tier.policy.PlacementPolicy;

import io.most.tier.policy.PolicyContext;

import io.most.tier.policy.MirroredWrite;

import io.most.tier.policy.Tier;

/** A policy whose decisions the test sets: fixed placement and routing (or a subclass's), no tuning, optional cleaning. */
class ScriptedPolicy implements PlacementPolicy {
    volatile Tier place = Tier.PERFORMANCE;
    volatile Tier read = Tier.PERFORMANCE;
    volatile MirroredWrite write = MirroredWrite.PERFORMANCE;
    volatile boolean clean;

    @Override
    public String name() {
        return "scripted";
    }

    @Override
    public Tier placeNewSegment(int segment) {
        return place;
    }

    @Override
    public Tier routeMirroredRead(int segment) {
        return read;
    }

    @Override
    public MirroredWrite routeMirroredWrite(int segment) {
        return write;
    }

    @Override
    public void optimize(PolicyContext context) {
    }

    @Override
    public double cleaningPriority(int segment, PolicyContext context) {
        return clean ? 1 : 0;
    }
}
