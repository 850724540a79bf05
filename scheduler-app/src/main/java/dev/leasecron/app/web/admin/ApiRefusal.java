package dev.leasecron.app.web.admin;

/**
 * A request the admin API answers with an error of the client's making (4xx) or a control that
 * cannot act (5xx), as {@code {"error": ..., "detail": ...}}.
 */
final class ApiRefusal extends RuntimeException {
    private final int status;
    private final String error;

    ApiRefusal(int status, String error, String detail) {
        super(detail, null, false, false);
        this.status = status;
        this.error = error;
    }

    int status() {
        return status;
    }

    String error() {
        return error;
    }

    String detail() {
        return getMessage();
    }
}
