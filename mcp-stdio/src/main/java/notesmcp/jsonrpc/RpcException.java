package notesmcp.jsonrpc;

import notesmcp.jsonrpc.Message.ErrorObject;

/**
 * A protocol error: thrown by a request handler, turned into an error response by the dispatcher
 * alone; on the client side, the error a peer answered with.
 */
public final class RpcException extends Exception {
  private static final long serialVersionUID = 1L;

  private final transient ErrorObject error;

  public RpcException(ErrorObject error) {
    super(error.code() + " " + error.message(), null, false, false);
    this.error = error;
  }

  public RpcException(int code, String message) {
    this(new ErrorObject(code, message));
  }

  public ErrorObject error() {
    return error;
  }
}
