package dev.leasecron.lease.sql;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one-statement claim of an instant for some names (PostgreSQL), built ahead of the instant:
 * tokens minted, text and parameters ready, so that when the instant comes only the round trip is
 * left. Made by {@link LeaseStore#prepareFreeSlots}, run once by {@link LeaseStore#claimFreeSlots}.
 */
public final class FreeSlotClaim {
    private final Map<String, String> tokens;
    private final BatchStatement statement;

    FreeSlotClaim(Map<String, String> tokens, BatchStatement statement) {
        this.tokens = Collections.unmodifiableMap(new LinkedHashMap<>(tokens));
        this.statement = statement;
    }

    /** Name to the token minted for it, the holder a won claim records. */
    public Map<String, String> tokens() {
        return tokens;
    }

    BatchStatement statement() {
        return statement;
    }
}
