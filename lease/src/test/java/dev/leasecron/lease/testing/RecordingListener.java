package dev.leasecron.lease.testing;

import dev.leasecron.lease.Handle;
import dev.leasecron.lease.LeaseListener;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Keeps what the lease threads report, for tests that count renewal failures and losses. */
public final class RecordingListener implements LeaseListener {
    public final List<Throwable> renewFailures = new CopyOnWriteArrayList<>();
    public final List<String> losses = new CopyOnWriteArrayList<>();
    public final List<Handle> wouldNotStop = new CopyOnWriteArrayList<>();

    @Override
    public void renewFailed(Handle handle, Throwable cause) {
        renewFailures.add(cause);
    }

    @Override
    public void lost(Handle handle, String reason) {
        losses.add(reason);
    }

    @Override
    public void wouldNotStop(Handle handle, Duration grace) {
        wouldNotStop.add(handle);
    }
}
