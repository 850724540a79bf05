/**
 * The {@code leasecron} command line (picocli). {@link dev.leasecron.app.cli.Main} builds the command
 * tree; each subcommand is one class. {@code validate} and {@code next} read files only and never open
 * a database; they print user mistakes as {@code file:line:col: message} lines, never stack traces.
 */
package dev.leasecron.app.cli;
