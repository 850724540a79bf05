/**
 * The job plugin SPI of leasecron.
 *
 * <p>A plugin is a jar with one or more {@link dev.leasecron.jobs.Job} implementations listed in
 * {@code META-INF/services/dev.leasecron.jobs.Job}. The daemon finds them with
 * {@link java.util.ServiceLoader} on its classpath and in its plugins folder, and runs a round of a
 * job by calling {@link dev.leasecron.jobs.Job#run} with a {@link dev.leasecron.jobs.JobContext}.
 *
 * <p>What a round can rely on: it runs only while its replica holds the job's lease for the instant;
 * a round cut short (shutdown, crash, lost lease) runs once more, elsewhere, with
 * {@link dev.leasecron.jobs.JobContext#rerun()} true; a round that throws is a failure and never runs
 * again. What it cannot rely on: side effects outside a guarded transaction are not fenced, so a
 * round whose replica stalls may overlap its rerun by up to the lease's step-down grace. Use
 * {@link dev.leasecron.jobs.JobContext#term()} to fence external systems, and make work idempotent.
 *
 * <p>This package depends on nothing but the JDK and the SLF4J API.
 */
package dev.leasecron.jobs;
