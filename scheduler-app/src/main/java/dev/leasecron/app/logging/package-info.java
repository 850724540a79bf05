/**
 * The daemon's logs: one JSON object per line on stdout (or a human-readable line, for a terminal),
 * and {@link dev.leasecron.app.logging.Event}, which writes a named event with its fields in one
 * line of code. Every event is findable by its {@code event} field; {@link
 * dev.leasecron.app.logging.Events} lists the names.
 */
package dev.leasecron.app.logging;
