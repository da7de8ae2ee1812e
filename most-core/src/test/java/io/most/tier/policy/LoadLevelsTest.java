package io.most.tier.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class LoadLevelsTest {
    @Test
    void findsTheNearestKeptLevelWithinTheLoadStep() {
        LoadLevels levels = new LoadLevels();
        levels.remember(new LoadLevels.Level(9_000, 0, 2));
        levels.remember(new LoadLevels.Level(36_000, 0.75, 5));
        assertEquals(0.75, levels.near(28_000).ratio(), "a burst's first interval, before the ratio rose");
        assertEquals(0, levels.near(17_000).ratio(), "a drop's first interval, still partly at the peak");
        assertNull(levels.near(80_000), "no kept level within a factor of 2");
        assertNull(levels.near(4_000));
    }

    @Test
    void aLevelNearAKeptOneReplacesIt() {
        LoadLevels levels = new LoadLevels();
        levels.remember(new LoadLevels.Level(36_000, 0.75, 5));
        levels.remember(new LoadLevels.Level(30_000, 0.6, 4));
        assertEquals(new LoadLevels.Level(30_000, 0.6, 4), levels.near(36_000));
    }

    @Test
    void keepsTheMostRecentlyLeftLevels() {
        LoadLevels levels = new LoadLevels();
        for (int i = 0; i <= LoadLevels.CAPACITY; i++) {
            levels.remember(new LoadLevels.Level(1_000 << (2 * i), i, 1)); // 4x apart: all distinct
        }
        assertNull(levels.near(1_000), "the oldest was replaced");
        for (int i = 1; i <= LoadLevels.CAPACITY; i++) {
            assertEquals(i, levels.near(1_000 << (2 * i)).ratio());
        }
    }
}
