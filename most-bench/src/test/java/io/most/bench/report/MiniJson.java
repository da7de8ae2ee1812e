package io.most.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the reports back in tests, through {@link Json#read}: objects become maps (document order),
 * arrays lists, and every number a {@link Double}, so assertions need not care how a count was written.
 */
public final class MiniJson {
    private MiniJson() {
    }

    public static Object parse(String text) {
        return numbersAsDoubles(Json.read(text));
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    public static List<Object> array(Object value) {
        return (List<Object>) value;
    }

    private static Object numbersAsDoubles(Object value) {
        return switch (value) {
            case Number n -> n.doubleValue();
            case Map<?, ?> map -> {
                Map<String, Object> copy = new LinkedHashMap<>();
                map.forEach((k, v) -> copy.put((String) k, numbersAsDoubles(v)));
                yield copy;
            }
            case List<?> list -> {
                List<Object> copy = new ArrayList<>();
                list.forEach(v -> copy.add(numbersAsDoubles(v)));
                yield copy;
            }
            case null, default -> value;
        };
    }
}
