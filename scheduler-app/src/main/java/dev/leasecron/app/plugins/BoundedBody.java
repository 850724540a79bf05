package dev.leasecron.app.plugins;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Keeps the first {@code limit} bytes of a response body and drops the rest as it arrives, so a
 * large answer costs no memory; the kept part is for a failure message.
 */
final class BoundedBody implements Consumer<Optional<byte[]>> {
    private final int limit;
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private boolean cut;

    BoundedBody(int limit) {
        this.limit = limit;
    }

    @Override
    public synchronized void accept(Optional<byte[]> chunk) {
        chunk.ifPresent(bytes -> {
            int room = limit - kept.size();
            kept.write(bytes, 0, Math.min(room, bytes.length));
            cut |= bytes.length > room;
        });
    }

    /** The kept bytes as UTF-8 text, stripped, with "…" when the body was longer. */
    synchronized String excerpt() {
        String text = kept.toString(StandardCharsets.UTF_8).strip();
        return cut ? text + "…" : text;
    }
}
