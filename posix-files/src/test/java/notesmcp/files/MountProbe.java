package notesmcp.files;

import java.nio.charset.StandardCharsets;

/**
 * Run by {@code PosixTest} in a mount namespace of its own, where {@code ROOT/mounted} is a bind
 * mount: prints what the natives say of it, one fact a line.
 */
final class MountProbe {
  private MountProbe() {}

  public static void main(String[] args) throws Exception {
    Posix.require();
    long[] root = new long[Posix.ATTRIBUTES];
    int rootFd = Posix.openDirectory(args[0].getBytes(StandardCharsets.UTF_8), root);
    byte[] name = "mounted".getBytes(StandardCharsets.UTF_8);
    long[] mounted = new long[Posix.ATTRIBUTES];
    int plain = Posix.openFolderAt(rootFd, name, false, mounted);
    System.out.println(plain >= 0 ? "openat=ok" : "openat=" + plain);
    System.out.println("same-device=" + (mounted[Posix.DEVICE] == root[Posix.DEVICE]));
    System.out.println("same-mount=" + (mounted[Posix.MOUNT] == root[Posix.MOUNT]));
    System.out.println("openat2=" + Posix.openFolderAt(rootFd, name, true, mounted));
    System.out.println("beneath=" + Posix.openFolderBeneath(rootFd, name, mounted));
  }
}
