package dev.leasecron.app.plugins;

import dev.leasecron.jobs.Job;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.CodeSource;

/**
 * A job type with where its class came from, so that messages can point at the jar to fix.
 *
 * @param type the job's {@link Job#type()}, read once
 * @param job the one instance that serves every job of its type
 * @param source the jar (or classes folder) holding the implementation, or a description when the
 *     JDK does not say
 */
record LoadedJob(String type, Job job, String source) {

    static LoadedJob of(Job job) {
        return new LoadedJob(job.type(), job, sourceOf(job.getClass()));
    }

    /** {@code com.example.HelloJob (plugins/hello.jar)}, for messages. */
    String describe() {
        return job.getClass().getName() + " (" + source + ")";
    }

    static String sourceOf(Class<?> type) {
        CodeSource code = type.getProtectionDomain().getCodeSource();
        if (code == null || code.getLocation() == null) {
            return "unknown location";
        }
        try {
            return Path.of(code.getLocation().toURI()).toString();
        } catch (URISyntaxException | IllegalArgumentException e) {
            return code.getLocation().toString();
        }
    }
}
