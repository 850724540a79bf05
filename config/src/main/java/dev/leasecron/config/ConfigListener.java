package dev.leasecron.config;

import java.util.List;

/**
 * What a {@link ConfigWatcher} tells the daemon. Both methods run on the watcher's thread, one call
 * at a time; a slow listener delays the next check, never overlaps it. An exception thrown here is
 * logged and the content counts as delivered: the watcher goes on with the next change.
 */
public interface ConfigListener {
    /** The file changed and the new contents are valid: apply {@code config}. */
    void onReload(JobsConfig config);

    /**
     * The file changed and the new contents are not valid (or the file cannot be read): keep running
     * the current config and report {@code errors}. Called once per distinct bad content.
     */
    void onRejected(List<ConfigError> errors);

    /**
     * The file holds the running config's contents again after contents that were rejected: nothing
     * to apply, but what {@link #onRejected} reported no longer stands. Called once per return.
     */
    default void onRestored() {}
}
