package dev.leasecron.app.plugins;

import dev.leasecron.jobs.Job;
import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.slf4j.Logger;

/**
 * Builds a plugin jar at test time: compiles Java sources against the jobs API with the JDK's
 * compiler and writes the classes and a {@code META-INF/services} entry. The classes exist only in
 * the jar, so a registry that finds them has really loaded them from the plugins folder.
 */
final class PluginJarBuilder {
    private final Map<String, String> sources = new LinkedHashMap<>();
    private final List<String> providers = new ArrayList<>();

    /** Adds a class from its full source. */
    PluginJarBuilder source(String className, String source) {
        sources.put(className, source);
        return this;
    }

    /** Adds a job class of type {@code type} whose constructor runs {@code constructorBody}. */
    PluginJarBuilder job(String className, String type, String constructorBody) {
        int dot = className.lastIndexOf('.');
        source(className, """
                package %s;
                public class %s implements dev.leasecron.jobs.Job {
                    public %s() { %s }
                    @Override public String type() { return "%s"; }
                    @Override public void run(dev.leasecron.jobs.JobContext context) {
                        context.log().info("ran {}", type());
                    }
                }
                """.formatted(className.substring(0, dot), className.substring(dot + 1),
                className.substring(dot + 1), constructorBody, type));
        return provider(className);
    }

    /** Adds a job class of type {@code type}, listed as a provider. */
    PluginJarBuilder job(String className, String type) {
        return job(className, type, "");
    }

    /** Lists {@code className} in the jar's service file, whether or not the jar holds it. */
    PluginJarBuilder provider(String className) {
        providers.add(className);
        return this;
    }

    /** Compiles the sources and writes the jar at {@code jar}. */
    Path write(Path jar) throws IOException {
        Path classes = Files.createTempDirectory("plugin-classes");
        compile(classes);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                putEntry(out, classes.relativize(file).toString().replace('\\', '/'), Files.readAllBytes(file));
            }
            String services = String.join("\n", providers) + "\n";
            putEntry(out, "META-INF/services/" + Job.class.getName(), services.getBytes(StandardCharsets.UTF_8));
        }
        return jar;
    }

    private void compile(Path classes) {
        if (sources.isEmpty()) {
            return;
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        List<JavaFileObject> units = sources.entrySet().stream()
                .map(e -> (JavaFileObject) new Source(e.getKey(), e.getValue()))
                .toList();
        StringWriter diagnostics = new StringWriter();
        String classpath = locationOf(Job.class) + File.pathSeparator + locationOf(Logger.class);
        boolean ok = compiler.getTask(diagnostics, null, null,
                List.of("-classpath", classpath, "-d", classes.toString(), "-proc:none"), null, units).call();
        if (!ok) {
            throw new IllegalStateException("test plugin does not compile:\n" + diagnostics);
        }
    }

    private static void putEntry(JarOutputStream out, String name, byte[] bytes) throws IOException {
        out.putNextEntry(new JarEntry(name));
        out.write(bytes);
        out.closeEntry();
    }

    private static String locationOf(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final class Source extends SimpleJavaFileObject {
        private final String code;

        Source(String className, String code) {
            super(URI.create("string:///" + className.replace('.', '/') + Kind.SOURCE.extension),
                    Kind.SOURCE);
            this.code = code;
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return code;
        }
    }
}
