package notesmcp.app;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Just enough of a class file reader (JVMS §4) to list a class's {@code invokedynamic} and dynamic
 * constants with the class of the bootstrap method each links through: a lambda or method reference
 * links through {@code java/lang/invoke/LambdaMetafactory}, a string concatenation through {@code
 * java/lang/invoke/StringConcatFactory}, a record's generated {@code toString}/{@code
 * equals}/{@code hashCode} through {@code java/lang/runtime/ObjectMethods}.
 */
final class ConstantPool {
  private static final int UTF8 = 1;
  private static final int CLASS = 7;
  private static final int METHOD_HANDLE = 15;
  private static final int DYNAMIC = 17;
  private static final int INVOKE_DYNAMIC = 18;

  private ConstantPool() {}

  /** The bootstrap classes of every dynamic constant and call site in the class, one per entry. */
  static List<String> bootstrapsOf(byte[] classFile) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
    if (in.readInt() != 0xCAFEBABE) {
      throw new IOException("not a class file");
    }
    in.readUnsignedShort(); // minor
    in.readUnsignedShort(); // major
    int count = in.readUnsignedShort();
    int[] tags = new int[count];
    int[] first = new int[count];
    String[] utf8 = new String[count];
    List<Integer> dynamic = new ArrayList<>();
    for (int i = 1; i < count; i++) {
      int tag = in.readUnsignedByte();
      tags[i] = tag;
      switch (tag) {
        case UTF8:
          utf8[i] = in.readUTF();
          break;
        case 3: // Integer
        case 4: // Float
          in.readInt();
          break;
        case 5: // Long
        case 6: // Double
          in.readLong();
          i++;
          break;
        case CLASS:
        case 8: // String
        case 16: // MethodType
        case 19: // Module
        case 20: // Package
          first[i] = in.readUnsignedShort();
          break;
        case 9: // Fieldref
        case 10: // Methodref
        case 11: // InterfaceMethodref
        case 12: // NameAndType
          first[i] = in.readUnsignedShort();
          in.readUnsignedShort();
          break;
        case METHOD_HANDLE:
          in.readUnsignedByte();
          first[i] = in.readUnsignedShort();
          break;
        case DYNAMIC:
        case INVOKE_DYNAMIC:
          first[i] = in.readUnsignedShort(); // the index into BootstrapMethods
          in.readUnsignedShort();
          dynamic.add(i);
          break;
        default:
          throw new IOException("unknown constant pool tag " + tag);
      }
    }
    if (dynamic.isEmpty()) {
      return List.of();
    }
    int[] bootstraps = bootstrapMethods(in, utf8);
    List<String> classes = new ArrayList<>();
    for (int entry : dynamic) {
      int handle = bootstraps[first[entry]];
      int method = first[handle];
      int owner = first[method];
      classes.add(utf8[first[owner]]);
    }
    return classes;
  }

  /** Skips to the class's attributes and returns BootstrapMethods' method handle indexes. */
  private static int[] bootstrapMethods(DataInputStream in, String[] utf8) throws IOException {
    in.readUnsignedShort(); // access flags
    in.readUnsignedShort(); // this
    in.readUnsignedShort(); // super
    int interfaces = in.readUnsignedShort();
    in.skipBytes(2 * interfaces);
    for (int members = 0; members < 2; members++) { // fields, then methods
      int count = in.readUnsignedShort();
      for (int i = 0; i < count; i++) {
        in.skipBytes(6);
        skipAttributes(in);
      }
    }
    int attributes = in.readUnsignedShort();
    for (int i = 0; i < attributes; i++) {
      String name = utf8[in.readUnsignedShort()];
      int length = in.readInt();
      if (!"BootstrapMethods".equals(name)) {
        in.skipBytes(length);
        continue;
      }
      int count = in.readUnsignedShort();
      int[] handles = new int[count];
      for (int b = 0; b < count; b++) {
        handles[b] = in.readUnsignedShort();
        in.skipBytes(2 * in.readUnsignedShort());
      }
      return handles;
    }
    throw new IOException("invokedynamic without a BootstrapMethods attribute");
  }

  private static void skipAttributes(DataInputStream in) throws IOException {
    int count = in.readUnsignedShort();
    for (int i = 0; i < count; i++) {
      in.readUnsignedShort();
      in.skipBytes(in.readInt());
    }
  }
}
