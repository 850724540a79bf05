/**
 * Job types: finding them (the app's classpath plus the jars of a plugins folder, through
 * {@link java.util.ServiceLoader}) and the two built into the daemon, {@code shell} and {@code http}.
 *
 * <p>Start-up either gets every job type it was given or stops with a message that names the jar
 * at fault; it never runs with some plugins silently missing.
 */
package dev.leasecron.app.plugins;
