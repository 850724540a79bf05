package dev.leasecron.lease.sql;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;
import static org.jooq.impl.SQLDataType.BIGINT;
import static org.jooq.impl.SQLDataType.VARCHAR;

import dev.leasecron.lease.LeaseName;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;

/** The {@code gst_leases} table: one row per name, updated in place. Times are UTC ms; 0 = none. */
final class LeaseTable {
    static final Table<Record> GST_LEASES = table(name("gst_leases"));
    static final Field<String> NAME = field(name("name"), VARCHAR(LeaseName.MAX_BYTES).nullable(false));
    /** 32 hex characters, minted per claim and never reused (see {@code Tokens}). */
    static final Field<String> HOLDER = field(name("holder"), VARCHAR(32).nullable(false).defaultValue(""));
    /** Which process holds it, for reading logs. */
    static final Field<String> INSTANCE = field(name("instance"), VARCHAR(191).nullable(false).defaultValue(""));
    /** Moves on every change of hands; a first insert writes 1. */
    static final Field<Long> TERM = field(name("term"), BIGINT.nullable(false).defaultValue(0L));
    static final Field<Long> EXPIRES_AT_MS = field(name("expires_at_ms"), BIGINT.nullable(false).defaultValue(0L));
    /** The last instant claimed, or taken along by a finish; never decreases. */
    static final Field<Long> SLOT_MS = field(name("slot_ms"), BIGINT.nullable(false).defaultValue(0L));
    /** The last instant claimed, for as long as its round has not run to its end. */
    static final Field<Long> UNFINISHED_SLOT_MS =
            field(name("unfinished_slot_ms"), BIGINT.nullable(false).defaultValue(0L));
    /** The last instant claimed a second time. */
    static final Field<Long> RERUN_SLOT_MS = field(name("rerun_slot_ms"), BIGINT.nullable(false).defaultValue(0L));

    private LeaseTable() {}
}
