package dev.leasecron.lease;

import java.time.Instant;

/**
 * A job suspended by an operator: while its row exists, no replica runs the job's instants, and each
 * instant that comes is recorded in the history as {@link HistoryOutcome#SUSPENDED}. Read through
 * {@link JobControls#suspensions}; a replica honours it within one renew interval of its writing.
 *
 * @param name the job's lease name
 * @param by who suspended it (the admin token's name, or the operating-system user of the command line)
 * @param reason the reason given, empty when none
 * @param since when it was suspended, by the database clock
 */
public record Suspension(String name, String by, String reason, Instant since) {}
