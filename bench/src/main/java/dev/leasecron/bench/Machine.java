package dev.leasecron.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The machine the figures come from, as /proc tells it. */
final class Machine {
    private Machine() {}

    static Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cores", Runtime.getRuntime().availableProcessors());
        m.put("cpu", grep("/proc/cpuinfo", "model name"));
        m.put("memory", grep("/proc/meminfo", "MemTotal"));
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        return m;
    }

    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "?";
        }
    }

    private static String grep(String file, String key) {
        try {
            return Files.readAllLines(Path.of(file)).stream().filter(l -> l.startsWith(key))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse("?");
        } catch (IOException e) {
            return "?";
        }
    }
}
