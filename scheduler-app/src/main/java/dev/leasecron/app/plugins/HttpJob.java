package dev.leasecron.app.plugins;

import dev.leasecron.jobs.Job;
import dev.leasecron.jobs.JobContext;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The built-in {@code http} job type: sends one request per round with the JDK's HTTP client.
 *
 * <p>Params: {@code method} (GET when absent), {@code url} (http or https, required),
 * {@code headers} (names to strings), {@code body} (a string). Redirects are followed, except from
 * https to http. An answer with a 2xx status is success. Any other status is a failure whose message
 * holds the status and the start of the body; so is no answer within the job's timeout, or a
 * connection that fails. When the round is cancelled or its thread interrupted, the request is
 * aborted and the round ends.
 */
public final class HttpJob implements Job {
    private static final int BODY_EXCERPT_BYTES = 1_024;

    @Override
    public String type() {
        return "http";
    }

    @Override
    public List<String> checkParams(Map<String, Object> params) {
        ParamsReader reader = new ParamsReader(params);
        HttpCall.read(reader);
        return reader.problems();
    }

    @Override
    public void run(JobContext context) throws Exception {
        ParamsReader reader = new ParamsReader(context.params());
        HttpCall call = HttpCall.read(reader);
        reader.requireValid();

        Duration timeout = context.timeout();
        BoundedBody body = new BoundedBody(BODY_EXCERPT_BYTES);
        long started = System.nanoTime();
        // A client per round: rounds are minutes apart, and closing it leaves no thread behind.
        try (HttpClient client = client(timeout)) {
            CompletableFuture<HttpResponse<Void>> answer = client.sendAsync(call.request(timeout),
                    info -> HttpResponse.BodySubscribers.ofByteArrayConsumer(body));
            HttpResponse<Void> response = await(answer, client, call, context);
            long millis = Duration.ofNanos(System.nanoTime() - started).toMillis();
            int status = response.statusCode();
            if (status < 200 || status > 299) {
                String excerpt = body.excerpt();
                throw new JobFailedException(call.describe() + " answered " + status + " after " + millis + " ms"
                        + (excerpt.isEmpty() ? " with an empty body" : ": " + excerpt));
            }
            context.log().info("{} answered {} after {} ms", call.describe(), status, millis);
        }
    }

    private static HttpClient client(Duration timeout) {
        HttpClient.Builder builder = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL);
        if (timeout != null && timeout.isPositive()) {
            builder.connectTimeout(timeout);
        }
        return builder.build();
    }

    private static HttpResponse<Void> await(CompletableFuture<HttpResponse<Void>> answer, HttpClient client,
            HttpCall call, JobContext context) throws Exception {
        AutoCloseable registration = context.cancellation().onCancel(() -> answer.cancel(true));
        try {
            return answer.get();
        } catch (InterruptedException e) {
            answer.cancel(true);
            client.shutdownNow();
            throw e;
        } catch (CancellationException e) {
            client.shutdownNow();
            throw aborted(call, context);
        } catch (ExecutionException e) {
            if (context.cancellation().isCancelled()) {
                // The client may fail the request with its own wrapped cancellation or I/O error before
                // the returned future records the cancel: either way the round was cancelled, not failed.
                client.shutdownNow();
                throw aborted(call, context);
            }
            throw switch (e.getCause()) {
                case HttpTimeoutException timeout -> new JobFailedException(
                        call.describe() + ": no answer within " + context.timeout(), timeout);
                case IOException io -> new JobFailedException(call.describe() + ": " + io, io);
                case Throwable other -> e;
            };
        } finally {
            registration.close();
        }
    }

    private static CancellationException aborted(HttpCall call, JobContext context) {
        CancellationException stopped = new CancellationException(call.describe()
                + " aborted: the round was cancelled (" + context.cancellation().reason() + ")");
        stopped.initCause(context.cancellation().reason());
        return stopped;
    }
}
