package io.most.bench.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class RotationTest {
    @Test
    void eachRoundStartsOneLater() {
        List<String> items = List.of("a", "b", "c");
        assertEquals(List.of("a", "b", "c"), Rotation.round(items, 0));
        assertEquals(List.of("b", "c", "a"), Rotation.round(items, 1));
        assertEquals(List.of("c", "a", "b"), Rotation.round(items, 2));
        assertEquals(List.of("a", "b", "c"), Rotation.round(items, 3), "the rotation wraps around");
    }

    @Test
    void everyItemRunsInEveryPositionOnceOverAsManyRoundsAsItems() {
        List<String> items = List.of("a", "b", "c", "d");
        for (int position = 0; position < items.size(); position++) {
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (int round = 0; round < items.size(); round++) {
                seen.add(Rotation.round(items, round).get(position));
            }
            assertEquals(java.util.Set.copyOf(items), seen, "position " + position);
        }
    }

    @Test
    void singleItemAndBadRound() {
        assertEquals(List.of("a"), Rotation.round(List.of("a"), 5));
        assertThrows(IllegalArgumentException.class, () -> Rotation.round(List.of("a"), -1));
    }
}
