package notesmcp.cli;

/**
 * A command line that cannot be run; the message says what to change. Every mode prints it with
 * exit code 2; every mode's command line is read by the same rules ({@link Flag}).
 */
public final class UsageException extends Exception {
  private static final long serialVersionUID = 1L;

  public UsageException(String message) {
    super(message);
  }
}
