package dev.leasecron.app.cli;

/** Entry point of {@code leasecron.jar}. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        System.out.println("leasecron");
    }
}
