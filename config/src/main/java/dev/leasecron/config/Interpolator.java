package dev.leasecron.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Replaces environment references in a piece of text.
 *
 * <ul>
 *   <li>{@code ${VAR}} becomes the variable's value; a variable that is not set is a mistake.
 *   <li>{@code ${VAR:-default}} becomes the value, or {@code default} when the variable is unset or
 *       empty (as in the shell). The default is literal text up to the first {@code }}.
 *   <li>{@code $${} becomes a literal {@code ${}.
 *   <li>Any other {@code $} (a shell's {@code $HOME}, {@code $1}) is left as written, so shell
 *       commands need no escaping.
 * </ul>
 *
 * <p>Values are inserted as text into an already-parsed scalar, so a value containing {@code :} or
 * {@code #} cannot change the file's structure.
 */
final class Interpolator {
    private static final String NOT_A_REFERENCE = "is not a variable reference: write ${NAME} or ${NAME:-default}"
            + " (NAME of letters, digits and _), or \"$${\" for a literal \"${\"";
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private final Map<String, String> environment;

    Interpolator(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    /** The text with its references replaced, or the problems found (each at its index in the text). */
    Result interpolate(String text) {
        if (!text.contains("${")) {
            return new Result(text, List.of());
        }
        StringBuilder out = new StringBuilder(text.length());
        List<Problem> problems = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            if (text.startsWith("$${", i)) {
                out.append("${");
                i += 3;
            } else if (text.startsWith("${", i)) {
                int close = text.indexOf('}', i + 2);
                if (close < 0) {
                    problems.add(new Problem(i, "unterminated \"${\": close it with \"}\", or write \"$${\" for a literal \"${\""));
                    break;
                }
                String reference = text.substring(i + 2, close);
                resolve(reference, i, out, problems);
                i = close + 1;
            } else {
                out.append(text.charAt(i));
                i++;
            }
        }
        return new Result(out.toString(), problems);
    }

    private void resolve(String reference, int index, StringBuilder out, List<Problem> problems) {
        int split = reference.indexOf(":-");
        String name = split < 0 ? reference : reference.substring(0, split);
        if (!NAME.matcher(name).matches()) {
            problems.add(new Problem(index, "\"${" + reference + "}\" " + NOT_A_REFERENCE, "this \"${\" " + NOT_A_REFERENCE));
            return;
        }
        String value = environment.get(name);
        if (split >= 0 && (value == null || value.isEmpty())) {
            out.append(reference, split + 2, reference.length());
        } else if (value == null) {
            problems.add(new Problem(index, "environment variable " + name + " is not set (write ${" + name
                    + ":-default} to give a default)"));
        } else {
            out.append(value);
        }
    }

    /** Interpolated text, valid only when {@code problems} is empty. */
    record Result(String text, List<Problem> problems) {}

    /**
     * A bad reference at {@code index} of the interpolated text; {@code messageWithoutText} quotes
     * nothing of the text, for a value that is a secret.
     */
    record Problem(int index, String message, String messageWithoutText) {
        Problem(int index, String message) {
            this(index, message, message);
        }
    }
}
