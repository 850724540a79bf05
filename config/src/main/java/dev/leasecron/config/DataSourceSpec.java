package dev.leasecron.config;

import java.util.Objects;
import java.util.Optional;

/**
 * Where one database is and how to log in to it. Printing it never shows the password, nor one
 * written into the URL ({@code ?password=...}, {@code user:password@host}).
 *
 * @param url the JDBC URL
 * @param username empty when the URL (or the driver's default) says who logs in
 * @param password {@link Secret#none()} when there is none
 */
public record DataSourceSpec(String url, Optional<String> username, Secret password) {
    public DataSourceSpec {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(username, "username");
        Objects.requireNonNull(password, "password");
    }

    /** {@link #url()} fit for printing. */
    public String maskedUrl() {
        return SecretMasking.maskUrlCredentials(url);
    }

    @Override
    public String toString() {
        return "DataSourceSpec[url=" + maskedUrl() + ", username=" + username.orElse("(none)") + ", password=" + password + "]";
    }
}
