package dev.leasecron.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Decides which job params are secret and masks them for printing.
 *
 * <p>A key is secret when its name contains {@code password}, {@code token}, {@code secret} or
 * {@code key}, or names an {@code Authorization} header, in any letter case and at any depth (so
 * {@code headers.Authorization} and {@code apiKey} are both masked). Erring towards masking is
 * deliberate: a masked value that was harmless costs nothing, a printed token costs a rotation.
 */
final class SecretMasking {
    private static final List<String> SECRET_WORDS = List.of("password", "token", "secret", "key", "authorization");

    private SecretMasking() {}

    static boolean isSecretKey(String key) {
        String lower = key.toLowerCase(Locale.ROOT);
        return SECRET_WORDS.stream().anyMatch(lower::contains);
    }

    /** A copy of {@code params} with every secret value replaced by {@link Secret#MASK}. */
    static Map<String, Object> mask(Map<String, Object> params) {
        Map<String, Object> masked = new LinkedHashMap<>();
        params.forEach((key, value) -> masked.put(key, isSecretKey(key) ? Secret.MASK : maskNested(value)));
        return Collections.unmodifiableMap(masked);
    }

    private static Object maskNested(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> nested = new LinkedHashMap<>();
            map.forEach((key, inner) -> nested.put((String) key, inner));
            return mask(nested);
        }
        if (value instanceof List<?> list) {
            List<Object> items = new ArrayList<>();
            list.forEach(item -> items.add(maskNested(item)));
            return Collections.unmodifiableList(items);
        }
        return value;
    }
}
