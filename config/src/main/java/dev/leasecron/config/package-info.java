/**
 * The jobs file: its model, loading, {@code ${ENV}} interpolation, validation with
 * {@code file:line:column} errors, schedules, and reload on change.
 *
 * <p>Guarantees:
 * <ul>
 *   <li>A {@link dev.leasecron.config.JobsConfig} exists only for a file with no mistake in it; a file
 *       with mistakes gives a {@link dev.leasecron.config.ConfigException} listing every one of them,
 *       each at its line and column with its key path, and never a stack trace for the user.
 *   <li>Unknown keys are errors, so a typo never silently turns a setting off.
 *   <li>Every job name fits the lease table once prefixed ({@link dev.leasecron.config.JobSpec#leaseName()}).
 *   <li>Secrets (database passwords; params under keys that look secret) never appear in
 *       {@code toString()}.
 *   <li>{@link dev.leasecron.config.Schedule} gives strictly increasing instants, each once, across
 *       daylight-saving changes (the rule is on that class).
 *   <li>Nothing here opens a database or a network connection.
 * </ul>
 *
 * <p>Not guaranteed: that a job's {@code type} exists or accepts its {@code params}; only the
 * {@link dev.leasecron.config.JobTypeChecker} the caller passes can say that.
 */
package dev.leasecron.config;
