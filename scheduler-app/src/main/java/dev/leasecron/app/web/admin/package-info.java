/**
 * The admin API on the ops port: run a job now, suspend it, resume it, each a POST carrying the admin
 * token ({@code http.adminToken}) as a bearer token, and the state of a run request.
 *
 * <p>Guarantees: without a configured token the actions do not exist (404); a request without the
 * token (401), with another (403), or refused for its method, size or body changes nothing; the token
 * is compared in constant time and never written to an answer or a log, where the requester is the
 * token's name. No cookie is read, so a cross-site form or script cannot act in an operator's name.
 * Not guaranteed: the token's secrecy on the wire, which needs a private network or TLS in front.
 *
 * <p>The routes act through {@link dev.leasecron.app.web.admin.JobControlPort}, which the daemon backs
 * with {@link dev.leasecron.app.control.JobActions}, the command line's controls too.
 */
package dev.leasecron.app.web.admin;
