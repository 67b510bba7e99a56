/**
 * The yardstick for HTTP figures: a Fastify server that answers a fixed JSON body, run as its
 * own process like the service, so ratios cancel out the machine's speed and noise.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const body = { data: { ok: true } };
app.get('/', async () => body);
const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.stdout.write(`LISTENING ${address}\n`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
