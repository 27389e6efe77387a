/**
 * Proxy benchmark helper, run as a child process: a minimal but correct signing proxy, as anyone
 * would write one with Fastify and undici. It reads the body, parses it, checks it is an array of
 * objects, signs the call (lowercase hex SHA-256 of key + secret + Unix seconds), forwards it over
 * kept-alive connections and returns the answer. It keeps none of the portal's promises (a
 * durable key, the journal, the log line, the audit event). It is the proxy bench's one fixed
 * reference, the proxy a user would run instead of the portal (decision 048): the budgets are
 * ratios to it, and what it does is not changed to meet them.
 * For the load bench it also passes a batch's results on (GET requisitionresults), and signs
 * with BENCH_API_KEY and BENCH_API_SECRET when they are set (the sandbox's demo pair).
 */
import {
  batchProblem,
  bytesApp,
  forwardSigned,
  sendAnswer,
  serveForBench,
  upstreamFromEnv,
} from './signing-peer-parts';

const upstream = upstreamFromEnv();
const app = bytesApp();

app.post('/api/vms/requisitionimport', async (request, reply) => {
  const body = request.body as Buffer;
  const problem = batchProblem(body);
  if (problem) return reply.code(400).send({ error: problem });
  return sendAnswer(
    reply,
    await forwardSigned(upstream, 'POST', 'requisitionimport', request.url, body),
  );
});

// A batch's results, for the load bench's users polling through it: signed and passed on.
app.get('/api/vms/requisitionresults', async (request, reply) =>
  sendAnswer(reply, await forwardSigned(upstream, 'GET', 'requisitionresults', request.url)),
);

await serveForBench(app);
