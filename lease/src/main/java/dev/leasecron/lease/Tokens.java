package dev.leasecron.lease;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;

/** Holder tokens and instance names: random enough never to repeat across claims and boots. */
final class Tokens {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int INSTANCE_MAX_BYTES = 191;
    /** 64 random bits drawn once per process: what sets this process's tokens apart from any other's. */
    private static final String BOOT = HexFormat.of().toHexDigits(RANDOM.nextLong());
    private static final AtomicLong COUNTER = new AtomicLong(RANDOM.nextLong());

    private Tokens() {}

    /**
     * 32 hex characters, the width of the holder column: the process's random 64 bits, then a counter
     * started at a random value. Within a process a token never repeats (the counter would need 2^64
     * claims to come round); across processes only if two drew the same 128 bits at start. A token
     * only has to be unique: no decision rests on it being hard to guess, and drawing 16 random bytes
     * per claim cost a thousand claims of one instant milliseconds on the way to their statement.
     */
    static String newHolder() {
        return BOOT + HexFormat.of().toHexDigits(COUNTER.getAndIncrement());
    }

    /** The host name plus a random suffix, new per boot, cut to the instance column's width. */
    static String newInstance(String base) {
        byte[] bytes = new byte[4];
        RANDOM.nextBytes(bytes);
        String suffix = "-" + HexFormat.of().formatHex(bytes);
        String host = base == null || base.isBlank() ? hostName() : base;
        while (host.getBytes(StandardCharsets.UTF_8).length + suffix.length() > INSTANCE_MAX_BYTES) {
            host = host.substring(0, host.length() - 1);
        }
        return host + suffix;
    }

    private static String hostName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "leasecron";
        }
    }
}
