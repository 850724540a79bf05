package dev.leasecron.app.web;

import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import gg.jte.output.StringOutput;

/**
 * The dashboard's jte templates ({@code src/main/jte}), compiled to classes at build time with HTML
 * output: every {@code ${...}} is escaped for where it stands (text, attribute), so a job name or an
 * error holding markup shows as text.
 */
public final class Templates {
    /** The package the jte Maven plugin generates the template classes in (see scheduler-app's pom). */
    static final String PACKAGE = "dev.leasecron.app.web.templates";

    private final TemplateEngine engine = TemplateEngine.createPrecompiled(null, ContentType.Html,
            Templates.class.getClassLoader(), PACKAGE);

    /** The HTML of template {@code name} (e.g. {@code index.jte}) given its one parameter. */
    public String render(String name, Object page) {
        StringOutput out = new StringOutput();
        engine.render(name, page, out);
        return out.toString();
    }
}
