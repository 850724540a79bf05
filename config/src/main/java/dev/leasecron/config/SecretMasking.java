package dev.leasecron.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Decides which job params are secret and masks them for printing.
 *
 * <p>A key is secret when its name contains {@code password}, {@code token}, {@code secret} or
 * {@code key}, or names an {@code Authorization} header, in any letter case and at any depth (so
 * {@code headers.Authorization} and {@code apiKey} are both masked). Every value under a
 * {@code headers} key is secret whatever its name (API keys hide behind any header name), and in
 * any text value a URL's password ({@code user:password@host}) and secret-looking query
 * parameters ({@code ?token=...}) are masked. Values of any type are masked alike. Erring towards
 * masking is deliberate: a masked value that was harmless costs nothing, a printed token costs a
 * rotation.
 */
final class SecretMasking {
    private static final List<String> SECRET_WORDS = List.of("password", "token", "secret", "key", "authorization");
    private static final String HEADERS = "headers";
    /** {@code //user:password@}: everything from the colon to the last {@code @} before a blank. */
    private static final Pattern URL_PASSWORD = Pattern.compile("(//[^/?#@:\\s]*:)\\S*@");
    private static final Pattern SECRET_QUERY_PARAMETER = Pattern.compile(
            "(?i)([?&;][^=&;#\\s]*(?:password|token|secret|key|signature)[^=&;#\\s]*=)[^&;#\\s]*");

    private SecretMasking() {}

    static boolean isSecretKey(String key) {
        String lower = key.toLowerCase(Locale.ROOT);
        return SECRET_WORDS.stream().anyMatch(lower::contains);
    }

    /**
     * Whether the value at {@code keyPath} ({@code database.password}, {@code http.adminToken},
     * {@code jobs[0].params.headers.X-Api-Key}) is a secret: a secret-looking key, or anything
     * under {@code headers}, at any depth.
     */
    static boolean isSecretPath(String keyPath) {
        for (String key : keyPath.split("[.\\[]")) {
            if (isSecretKey(key) || key.equalsIgnoreCase(HEADERS)) {
                return true;
            }
        }
        return false;
    }

    /** A copy of {@code params} with every secret value replaced by {@link Secret#MASK}. */
    static Map<String, Object> mask(Map<String, Object> params) {
        Map<String, Object> masked = new LinkedHashMap<>();
        params.forEach((key, value) -> masked.put(key, maskedValue(key, value)));
        return Collections.unmodifiableMap(masked);
    }

    /** {@code text} with a URL's password and secret-looking query parameters masked. */
    static String maskUrlCredentials(String text) {
        String masked = URL_PASSWORD.matcher(text).replaceAll("$1" + Secret.MASK + "@");
        return SECRET_QUERY_PARAMETER.matcher(masked).replaceAll("$1" + Secret.MASK);
    }

    private static Object maskedValue(String key, Object value) {
        if (isSecretKey(key)) {
            return Secret.MASK;
        }
        if (key.equalsIgnoreCase(HEADERS) && value instanceof Map<?, ?> headers) {
            Map<String, Object> names = new LinkedHashMap<>();
            headers.keySet().forEach(name -> names.put(String.valueOf(name), Secret.MASK));
            return Collections.unmodifiableMap(names);
        }
        return maskNested(value);
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
        if (value instanceof String text) {
            return maskUrlCredentials(text);
        }
        return value;
    }
}
