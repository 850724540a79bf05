/**
 * The lease protocol over the primary database. Only {@code dev.leasecron.lease} is exported: the
 * statements ({@code dev.leasecron.lease.sql}) are this module's own.
 */
module dev.leasecron.lease {
    requires transitive java.sql;
    requires transitive org.slf4j;
    requires org.jooq;

    exports dev.leasecron.lease;
}
