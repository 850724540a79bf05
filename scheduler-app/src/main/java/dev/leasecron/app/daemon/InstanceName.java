package dev.leasecron.app.daemon;

import dev.leasecron.config.JobsConfig;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The name this replica goes by in the lease rows and the logs: the configured {@code instance}
 * (by default the host name; in Kubernetes the chart sets the pod name) as it is, so that it can be
 * matched to its host or pod.
 *
 * <p>Across hosts the platform keeps the name unique: hosts have names of their own, and Kubernetes
 * gives no two pods of a namespace the same name. On one host, two daemons would share the host name,
 * so the name is held for the daemon's life by an exclusive lock on a file in the temp folder
 * ({@code leasecron-instance-HASH.lock}): a second daemon there finds it held and goes by the name
 * with {@code -2} (then {@code -3}, ...). The operating system drops the lock when the process ends,
 * however it ends, so a restarted daemon gets its name back. A temp folder that cannot hold the file
 * leaves the name unchecked.
 *
 * <p>What no lock sees: two hosts (or containers with separate temp folders) given the same name.
 * Leases stay safe then, since a claim is fenced by its holder token, new per claim, and its term;
 * the replica census counts the two as one, and the logs cannot tell them apart.
 */
final class InstanceName implements AutoCloseable {
    private static final int MAX_ORDINAL = 1000;

    private final String name;
    private final FileChannel channel;

    private InstanceName(String name, FileChannel channel) {
        this.name = name;
        this.channel = channel;
    }

    /** {@code wanted}, or the first of {@code wanted-2}, {@code wanted-3}, ... that no live daemon on this host holds. */
    static InstanceName hold(String wanted, Path lockFolder) {
        for (int ordinal = 1; ordinal <= MAX_ORDINAL; ordinal++) {
            String candidate = fit(wanted, ordinal == 1 ? "" : "-" + ordinal);
            switch (tryHold(candidate, lockFolder)) {
                case Attempt.Held held -> {
                    return new InstanceName(candidate, held.channel());
                }
                case Attempt.Unchecked unchecked -> {
                    return new InstanceName(candidate, null);
                }
                case Attempt.Taken taken -> {
                    // The next ordinal, then.
                }
            }
        }
        return new InstanceName(fit(wanted, ""), null);
    }

    String name() {
        return name;
    }

    private sealed interface Attempt {
        /** The name was free and is this daemon's while the channel is open. */
        record Held(FileChannel channel) implements Attempt {}

        /** Another process, or another daemon of this one, holds the name. */
        record Taken() implements Attempt {}

        /** The folder cannot hold a lock file: nothing can be known. */
        record Unchecked() implements Attempt {}
    }

    private static Attempt tryHold(String name, Path lockFolder) {
        Path file = lockFolder.resolve("leasecron-instance-" + hash(name) + ".lock");
        FileChannel channel;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (AccessDeniedException e) {
            // Another user's daemon made the file: the name is, or was, theirs.
            return new Attempt.Taken();
        } catch (IOException | UnsupportedOperationException e) {
            return new Attempt.Unchecked();
        }
        try {
            if (channel.tryLock() != null) {
                return new Attempt.Held(channel);
            }
        } catch (OverlappingFileLockException e) {
            // A daemon of this very process holds it.
        } catch (IOException e) {
            closeQuietly(channel);
            return new Attempt.Unchecked();
        }
        closeQuietly(channel);
        return new Attempt.Taken();
    }

    /** {@code base + suffix}, with {@code base} cut to leave the whole within the column's width. */
    private static String fit(String base, String suffix) {
        String cut = base;
        while (cut.getBytes(StandardCharsets.UTF_8).length + suffix.length() > JobsConfig.MAX_INSTANCE_BYTES) {
            cut = cut.substring(0, cut.offsetByCodePoints(cut.length(), -1));
        }
        return cut + suffix;
    }

    private static String hash(String name) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // Nothing held through it.
        }
    }

    /** Lets the name go: the next daemon on this host to want it gets it. */
    @Override
    public void close() {
        if (channel != null) {
            closeQuietly(channel);
        }
    }
}
