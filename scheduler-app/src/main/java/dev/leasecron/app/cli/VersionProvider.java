package dev.leasecron.app.cli;

import picocli.CommandLine;

/** {@code --version}: the version the packaged jar's manifest carries. */
final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = Main.class.getPackage().getImplementationVersion();
        // Run from classes (an IDE, the tests) there is no manifest to read.
        return new String[] {"leasecron " + (version == null ? "(development build)" : version)};
    }
}
