package dev.leasecron.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InterpolatorTest {
    private final Interpolator interpolator = new Interpolator(Map.of("USER", "ada", "EMPTY", ""));

    private String ok(String text) {
        Interpolator.Result result = interpolator.interpolate(text);
        assertEquals(List.of(), result.problems());
        return result.text();
    }

    @Test
    void replacesASetVariable() {
        assertEquals("hello ada!", ok("hello ${USER}!"));
    }

    @Test
    void defaultAppliesWhenUnsetOrEmptyAndIsIgnoredWhenSet() {
        assertEquals("5432", ok("${PORT:-5432}"));
        assertEquals("fallback", ok("${EMPTY:-fallback}"));
        assertEquals("ada", ok("${USER:-nobody}"));
        assertEquals("", ok("${PORT:-}"));
    }

    @Test
    void doubleDollarWritesALiteralReference() {
        assertEquals("${USER} is ada", ok("$${USER} is ${USER}"));
    }

    @Test
    void bareDollarIsLeftForTheShell() {
        assertEquals("echo $HOME $1 $$ costs 5$", ok("echo $HOME $1 $$ costs 5$"));
    }

    @Test
    void unsetVariableIsAnErrorNamingItAtItsIndex() {
        Interpolator.Result result = interpolator.interpolate("a ${MISSING} b");
        assertEquals(1, result.problems().size());
        assertEquals(2, result.problems().getFirst().index());
        assertTrue(result.problems().getFirst().message().contains("MISSING is not set"));
    }

    @Test
    void emptySetVariableWithoutDefaultIsItsEmptyValue() {
        assertEquals("[]", ok("[${EMPTY}]"));
    }

    @Test
    void everyBadReferenceInOneTextIsReported() {
        Interpolator.Result result = interpolator.interpolate("${A} ${B-x} ${C");
        assertEquals(List.of(0, 5, 12), result.problems().stream().map(Interpolator.Problem::index).toList());
    }
}
