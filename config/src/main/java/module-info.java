/** The jobs YAML: its model, loading with file:line errors, interpolation and reload on change. */
module dev.leasecron.config {
    requires dev.leasecron.lease;
    requires com.cronutils;
    requires com.fasterxml.jackson.core;
    requires com.fasterxml.jackson.databind;
    requires com.fasterxml.jackson.dataformat.yaml;
    requires org.yaml.snakeyaml;
    requires org.slf4j;

    exports dev.leasecron.config;
}
