/** The daemon and its command line: scheduler, plugins, logging, health, metrics and the dashboard. */
module dev.leasecron.app {
    requires dev.leasecron.config;
    requires transitive dev.leasecron.jobs;
    requires transitive dev.leasecron.lease;
    requires ch.qos.logback.classic;
    requires ch.qos.logback.core;
    requires com.fasterxml.jackson.databind;
    requires com.zaxxer.hikari;
    requires gg.jte.runtime;
    requires info.picocli;
    requires io.javalin;
    requires java.net.http;
    // The jte template classes carry @javax.annotation.processing.Generated, a source-only annotation.
    requires static java.compiler;
    requires jdk.unsupported;
    requires logstash.logback.encoder;
    requires micrometer.core;
    requires micrometer.registry.prometheus;
    requires org.slf4j;

    // The commands are read and set by picocli through reflection.
    opens dev.leasecron.app.cli to info.picocli;
    // The JSON API's records are written by Jackson through reflection.
    opens dev.leasecron.app.web.api to com.fasterxml.jackson.databind;

    // The scheduler, for embedding it (the benchmark does); the rest is the daemon's own.
    exports dev.leasecron.app.scheduler;

    uses dev.leasecron.jobs.Job;
    provides dev.leasecron.jobs.Job with dev.leasecron.app.plugins.ShellJob, dev.leasecron.app.plugins.HttpJob;
}
