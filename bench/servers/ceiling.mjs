// The ceiling: bare Fastify answering every scenario's route with a constant JSON body of the
// same size as Tally's answer (set once before measuring through PUT /__body). No database, no
// authentication: what one Node process can serve on this machine.
// Env: PORT.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const bodies = new Map();

app.put('/__body/:name', async (request) => {
  bodies.set(request.params.name, {
    status: request.body.status,
    text: request.body.text,
  });
  return { ok: true };
});

app.route({
  method: ['GET', 'POST', 'PUT'],
  url: '/c/:name',
  handler: async (request, reply) => {
    const body = bodies.get(request.params.name);
    if (!body) return reply.code(404).send({ error: 'Not found' });
    return reply.code(body.status).header('content-type', 'application/json').send(body.text);
  },
});

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => void app.close().finally(() => process.exit(0)));
}
