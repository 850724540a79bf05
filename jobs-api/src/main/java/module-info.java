/** The plugin API of leasecron: what a job type implements and what a round gives it. */
module dev.leasecron.jobs {
    requires transitive java.sql;
    requires transitive org.slf4j;

    exports dev.leasecron.jobs;
}
