package dev.leasecron.lease;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;

/**
 * The lease the current work runs under, carried by a {@link ScopedValue} for the work's scope
 * (the Java counterpart of a Go context carrying the handle). {@link Leases#run} binds it; the
 * transactions the work opens through {@link GuardedTransactions} find it and verify it first.
 */
public final class CurrentLease {
    private static final ScopedValue<Bound> BOUND = ScopedValue.newInstance();

    private CurrentLease() {}

    /** A handle with the scope its work runs in. */
    record Bound(Handle handle, LeaseScope scope) {}

    /** The lease the current work runs under, if any. */
    public static Optional<Handle> handle() {
        return BOUND.isBound() ? Optional.of(BOUND.get().handle()) : Optional.empty();
    }

    /** The term of the lease the current work runs under, if any. */
    public static OptionalLong term() {
        return BOUND.isBound() ? OptionalLong.of(BOUND.get().handle().term()) : OptionalLong.empty();
    }

    /** The scope the current work runs in, if it runs under a lease. */
    public static Optional<LeaseScope> scope() {
        return BOUND.isBound() ? Optional.of(BOUND.get().scope()) : Optional.empty();
    }

    /** Runs {@code work} with {@code handle} and {@code scope} as the current lease. */
    public static <T> T callWith(Handle handle, LeaseScope scope, Callable<T> work) throws Exception {
        return ScopedValue.where(BOUND, new Bound(handle, scope)).call(work::call);
    }

    static Optional<Bound> bound() {
        return BOUND.isBound() ? Optional.of(BOUND.get()) : Optional.empty();
    }
}
