package notesmcp.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import notesmcp.jsonrpc.Message.Id;
import notesmcp.jsonrpc.Message.Request;
import notesmcp.jsonrpc.RpcException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class InFlightTest {
  private final InFlight inFlight = new InFlight(2, Duration.ofMillis(50));

  private static Request request(Id id) {
    return new Request(id, "tools/call", null);
  }

  @Test
  void aCallAnswersCancelledOnlyAfterACancelAndKeepsTheReason() throws Exception {
    InFlight.Call call = inFlight.admit(request(Id.of(1)));
    assertThat(call.getAsBoolean()).isFalse();
    assertThat(call.isCancelled()).isFalse();
    assertThat(call.reason()).isNull();

    call.cancel("user stopped it");

    assertThat(call.getAsBoolean()).isTrue();
    assertThat(call.isCancelled()).isTrue();
    assertThat(call.reason()).isEqualTo("user stopped it");
    assertThat(call.request.id()).isEqualTo(Id.of(1));
  }

  @Test
  void anIdAlreadyInFlightIsAnInvalidRequestAndFreeAgainOnceAnswered() throws Exception {
    InFlight.Call first = inFlight.admit(request(Id.of(1)));

    assertThatThrownBy(() -> inFlight.admit(request(Id.of(1))))
        .isInstanceOf(RpcException.class)
        .hasMessage("-32600 Invalid Request: id 1 is already in flight");
    inFlight.answered(first);
    assertThat(inFlight.admit(request(Id.of(1)))).isNotSameAs(first);
  }

  @Test
  void aFullBoundIsOverloadedAfterTheWaitAndRoomComesBackWhenACallIsAnswered() throws Exception {
    InFlight.Call one = inFlight.admit(request(Id.of(1)));
    inFlight.admit(request(Id.of("two")));

    assertThatThrownBy(() -> inFlight.admit(request(Id.of(3))))
        .isInstanceOf(RpcException.class)
        .hasMessage("-32000 Server overloaded: 2 requests already in flight; retry later");
    inFlight.answered(one);
    assertThat(inFlight.admit(request(Id.of(3)))).isNotNull();
  }

  @Test
  void cancellationReachesExactlyTheNamedId() throws Exception {
    InFlight.Call token = inFlight.admit(request(Id.of(7)));

    assertThat(inFlight.cancel(Id.of("7"), "wrong type")).isNull();
    assertThat(token.isCancelled()).isFalse();
    assertThat(inFlight.cancel(Id.of(7), "stop")).isSameAs(token);
    assertThat(token.isCancelled()).isTrue();
    assertThat(token.reason()).isEqualTo("stop");
  }

  @Test
  void theEndWaitsForEveryAdmittedRequest() throws Exception {
    InFlight.Call token = inFlight.admit(request(Id.of(1)));
    Thread end =
        new Thread(
            () -> {
              try {
                inFlight.awaitAllAnswered();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "in-flight-test-end");
    end.start();

    end.join(200);
    assertThat(end.isAlive()).as("a request is still being worked on").isTrue();
    inFlight.answered(token);
    end.join(5_000);
    assertThat(end.isAlive()).isFalse();
  }

  /** A wait for room that is interrupted refuses the request at once and keeps the interrupt. */
  @Test
  void anInterruptedWaitForRoomIsOverloadedAndKeepsTheInterrupt() throws Exception {
    InFlight patient = new InFlight(1, Duration.ofSeconds(30));
    patient.admit(request(Id.of(1)));

    Thread.currentThread().interrupt();
    long start = System.nanoTime();

    assertThatThrownBy(() -> patient.admit(request(Id.of(2))))
        .isInstanceOf(RpcException.class)
        .hasMessage("-32000 Server overloaded: 1 requests already in flight; retry later");
    assertThat(Thread.interrupted()).isTrue();
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    assertThat(patient.cancel(Id.of(2), "gone")).as("the refused id is not in flight").isNull();
  }

  /** Waiting for the end takes no room for good: the bound is the same afterwards. */
  @Test
  void theEndLeavesTheBoundAsItWas() throws Exception {
    inFlight.awaitAllAnswered();

    inFlight.admit(request(Id.of(1)));
    inFlight.admit(request(Id.of(2)));
    assertThatThrownBy(() -> inFlight.admit(request(Id.of(3)))).isInstanceOf(RpcException.class);
  }
}
