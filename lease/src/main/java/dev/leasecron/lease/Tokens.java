package dev.leasecron.lease;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;

/** Holder tokens and instance names: random enough never to repeat across claims and boots. */
final class Tokens {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int INSTANCE_MAX_BYTES = 191;

    private Tokens() {}

    /** 16 random bytes in hex: 32 characters, the width of the holder column. */
    static String newHolder() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
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
