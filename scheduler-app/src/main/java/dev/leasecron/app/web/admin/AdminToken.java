package dev.leasecron.app.web.admin;

import dev.leasecron.config.Secret;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Optional;

/**
 * The token that state-changing requests carry, and the name the requests it grants are recorded and
 * logged under: never the token itself.
 *
 * <p>Only the token's SHA-256 digest is kept, and a token presented is hashed before it is compared,
 * with {@link MessageDigest#isEqual}: both sides are then 32 bytes long and compared in constant time,
 * so neither the time of a refusal nor its answer tells how much of a guess was right, nor how long the
 * token is.
 */
public final class AdminToken {
    /** The name of {@code http.adminToken}: the requester of every request it grants. */
    public static final String ADMIN = "admin";

    private final String name;
    private final byte[] digest;

    private AdminToken(String name, byte[] digest) {
        this.name = name;
        this.digest = digest;
    }

    /** The token of {@code http.adminToken}, named {@value #ADMIN}; empty when none is configured. */
    public static Optional<AdminToken> of(Secret adminToken) {
        return adminToken.isEmpty() ? Optional.empty() : Optional.of(new AdminToken(ADMIN, sha256(adminToken.reveal())));
    }

    /** Who the requests this token grants are recorded as. */
    public String name() {
        return name;
    }

    /** Whether {@code presented} is this token. */
    public boolean matches(String presented) {
        return MessageDigest.isEqual(sha256(presented), digest);
    }

    @Override
    public String toString() {
        return "AdminToken[" + name + "]";
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
