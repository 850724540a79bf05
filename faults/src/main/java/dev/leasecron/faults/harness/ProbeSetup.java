package dev.leasecron.faults.harness;

import dev.leasecron.faults.check.JobSchedule;
import dev.leasecron.faults.check.ProbeRow;
import dev.leasecron.faults.probe.ProbeJob;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/**
 * The probe's side of a run: the plugin jar the replicas load, the tables it writes, and reading them
 * back. The jar holds the probe's class and its service entry only; the daemon supplies the SPI.
 */
final class ProbeSetup {
    private ProbeSetup() {}

    /** The harness's jobs: per-second ones, slower ones, and one whose rounds overrun its period. */
    record ProbeJobSpec(JobSchedule schedule, int workMs) {}

    static final List<ProbeJobSpec> JOBS = List.of(
            new ProbeJobSpec(new JobSchedule("tick", 1), 100),
            new ProbeJobSpec(new JobSchedule("pulse", 1), 450),
            new ProbeJobSpec(new JobSchedule("slow", 3), 1200),
            new ProbeJobSpec(new JobSchedule("overrun", 2), 2600));

    static void writePluginJar(Path jar) throws IOException {
        Files.createDirectories(jar.getParent());
        String classFile = ProbeJob.class.getName().replace('.', '/') + ".class";
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                InputStream bytes = ProbeJob.class.getClassLoader().getResourceAsStream(classFile)) {
            out.putNextEntry(new JarEntry(classFile));
            bytes.transferTo(out);
            out.closeEntry();
            out.putNextEntry(new JarEntry("META-INF/services/dev.leasecron.jobs.Job"));
            out.write((ProbeJob.class.getName() + "\n").getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
    }

    static String jobsYaml() {
        return jobsYaml(JOBS);
    }

    static String jobsYaml(List<ProbeJobSpec> jobs) {
        StringBuilder yaml = new StringBuilder("jobs:\n");
        for (ProbeJobSpec job : jobs) {
            int period = job.schedule().periodSeconds();
            yaml.append("  - name: ").append(job.schedule().name()).append('\n')
                    .append("    schedule: \"").append(period == 1 ? "*" : "*/" + period).append(" * * * * *\"\n")
                    .append("    type: probe\n")
                    .append("    timeout: 30s\n")
                    .append("    params:\n")
                    .append("      work_ms: ").append(job.workMs()).append('\n');
        }
        return yaml.toString();
    }

    static void createTables(Connection c) throws SQLException {
        createTables(c, JOBS);
    }

    static void createTables(Connection c, List<ProbeJobSpec> jobs) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE probe_rounds (job VARCHAR(100) NOT NULL, instant_ms BIGINT NOT NULL,"
                    + " term BIGINT NOT NULL, holder VARCHAR(32) NOT NULL, rerun INT NOT NULL, start_ms BIGINT NOT NULL,"
                    + " end_ms BIGINT NOT NULL, seen_term BIGINT NOT NULL)");
            st.execute("CREATE TABLE probe_high (job VARCHAR(100) PRIMARY KEY, term BIGINT NOT NULL)");
        }
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO probe_high (job, term) VALUES (?, 0)")) {
            for (ProbeJobSpec job : jobs) {
                insert.setString(1, job.schedule().name());
                insert.executeUpdate();
            }
        }
    }

    static List<ProbeRow> readRows(Connection c) throws SQLException {
        List<ProbeRow> rows = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT job, instant_ms, term, holder, rerun, start_ms, end_ms, seen_term FROM probe_rounds")) {
            while (rs.next()) {
                rows.add(new ProbeRow(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getString(4), rs.getInt(5) == 1,
                        rs.getLong(6), rs.getLong(7), rs.getLong(8)));
            }
        }
        return rows;
    }

    static List<JobSchedule> schedules() {
        return schedules(JOBS);
    }

    static List<JobSchedule> schedules(List<ProbeJobSpec> jobs) {
        return jobs.stream().map(ProbeJobSpec::schedule).toList();
    }
}
