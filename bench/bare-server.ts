/**
 * The yardstick for HTTP figures: a Fastify server that answers a fixed JSON body, run as its
 * own process like the service, so ratios cancel out the machine's speed and noise. Both
 * bench/http.ts (on `/`) and bench/request-cost.ts's bare step (on `/v1/usage`) measure this
 * process, so their "× bare" figures share one denominator. Nothing else is loaded: no database,
 * no logger, no context.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const body = { data: { ok: true } };
app.get('/', async () => body);
app.get('/v1/usage', async () => body);
const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.stdout.write(`LISTENING ${address}\n`);
// Forked by bench/request-cost.ts: it waits for the address over IPC (no token to send).
process.send?.({ address, secret: 'none' });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
