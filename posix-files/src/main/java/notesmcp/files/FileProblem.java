package notesmcp.files;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * What went wrong with a file operation, in words: never an exception's class name, and never a
 * path, so the text may go into a tool result a client reads (no class names or cause chains on the
 * wire: {@code docs/design.md}, "Errors"). Callers that write to stderr add the path themselves.
 */
public final class FileProblem {
  private FileProblem() {}

  /** "no such file or folder", "permission denied", the system's own reason, ... */
  public static String describe(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file or folder";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof NotDirectoryException) {
      return "not a folder";
    }
    if (e instanceof FileAlreadyExistsException) {
      return "it already exists";
    }
    if (e instanceof DirectoryNotEmptyException) {
      return "the folder is not empty";
    }
    if (e instanceof FileSystemLoopException) {
      return "too many levels of symbolic links";
    }
    if (e instanceof FileSystemException && ((FileSystemException) e).getReason() != null) {
      // The operating system's own text (strerror): "No space left on device", "Not a directory".
      return ((FileSystemException) e).getReason();
    }
    return "input/output error";
  }
}
