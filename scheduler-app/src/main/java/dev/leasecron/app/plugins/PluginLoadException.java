package dev.leasecron.app.plugins;

/**
 * The job plugins cannot be loaded: a plugins folder that was asked for is missing, a plugin cannot
 * be created, or two plugins claim the same type. The message is complete and meant for the user as
 * it is; the cause, if any, is only for debugging.
 */
public final class PluginLoadException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PluginLoadException(String message) {
        super(message);
    }

    public PluginLoadException(String message, Throwable cause) {
        super(message, cause);
    }
}
