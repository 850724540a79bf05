/**
 * The dashboard and JSON API on the ops port, read-only: the jobs of the config in force with their
 * next instants, the lease rows (holder, term, a round running now), the round history and the
 * replicas sharing the jobs.
 *
 * <p>{@link dev.leasecron.app.web.ReadModel} reads everything for one request; a read that fails (the
 * database did not answer, the history is not there) becomes a message on the page and the rest is
 * still shown, so no page fails because the database blinked. Pages are jte templates compiled at
 * build time with HTML escaping on for every value (job names and errors are user data); the JSON API
 * under {@code /api/v1/} carries the same data. Nothing here changes state: the operators' actions
 * are the admin API's ({@link dev.leasecron.app.web.admin}), whose buttons a job's page shows when an
 * admin token is configured.
 */
package dev.leasecron.app.web;
