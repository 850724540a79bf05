package dev.leasecron.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DataSourceSpecTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "jdbc:postgresql://db:5432/app?user=u&password=hunter2&ssl=true | jdbc:postgresql://db:5432/app?user=u&password=******&ssl=true",
        "jdbc:mysql://u:hunter2@db:3306/app | jdbc:mysql://u:******@db:3306/app",
        "jdbc:mariadb://db:3306/app;PASSWORD=hunter2 | jdbc:mariadb://db:3306/app;PASSWORD=******",
        "jdbc:mysql://u:hunter2/with@slash@db:3306/app | jdbc:mysql://u:******@db:3306/app",
        "jdbc:postgresql://db/app?sslpassword=hunter2 | jdbc:postgresql://db/app?sslpassword=******",
        "jdbc:sqlite:leasecron.db | jdbc:sqlite:leasecron.db",
    })
    void printingMasksPasswordsInTheUrl(String url, String printed) {
        DataSourceSpec spec = new DataSourceSpec(url, Optional.of("u"), Secret.of("hunter2"));

        assertEquals(printed, spec.maskedUrl());
        assertFalse(spec.toString().contains("hunter2"), spec.toString());
        assertEquals(url, spec.url(), "the driver still gets the real URL");
    }

    @Test
    void aSecretPrintsMaskedButRevealsItsValue() {
        assertEquals("******", Secret.of("hunter2").toString());
        assertEquals("hunter2", Secret.of("hunter2").reveal());
        assertEquals(Secret.none(), Secret.of(""));
        assertEquals("(none)", Secret.none().toString());
    }
}
